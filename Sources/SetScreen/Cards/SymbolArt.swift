import SetRules

/// Draws one card symbol as pixels, two across and two down per cell (written with quadrant block
/// characters). Small cards get hand-drawn silhouettes, because a sampled outline a few pixels
/// wide loses its shape; larger ones sample the shape's outline, so it keeps its look as it grows.
/// Shading is drawn, not coloured: solid fills, striped is a stripe every other pixel row closed
/// by the outline at its ends, open is the outline alone.
enum SymbolArt {
    /// The pixels of one symbol, `height` rows of `width`; true is ink.
    static func pixels(_ shape: Shape, _ shading: Shading, width: Int, height: Int) -> [[Bool]] {
        shade(silhouette(shape, width: max(0, width), height: max(0, height)), shading)
    }

    /// The symbol's whole area, before shading.
    static func silhouette(_ shape: Shape, width: Int, height: Int) -> [[Bool]] {
        if let drawn = handDrawn[Size(width: width, height: height)]?[shape] {
            return drawn.map { $0.map { $0 == "#" } }
        }
        let aspect = Double(height) / Double(max(1, width))
        return (0..<height).map { y in
            (0..<width).map { x in
                let u = (Double(x) + 0.5) / Double(width) * 2 - 1
                let v = (Double(y) + 0.5) / Double(height) * 2 - 1
                return contains(shape, u: u, v: v, aspect: aspect)
            }
        }
    }

    static func shade(_ inside: [[Bool]], _ shading: Shading) -> [[Bool]] {
        func isInside(_ x: Int, _ y: Int) -> Bool {
            y >= 0 && y < inside.count && x >= 0 && x < inside[y].count && inside[y][x]
        }
        let inked = inside.indices.filter { inside[$0].contains(true) }
        let top = inked.first ?? 0, bottom = inked.last ?? 0
        return inside.indices.map { y in
            inside[y].indices.map { x in
                guard isInside(x, y) else { return false }
                let edge = !isInside(x - 1, y) || !isInside(x + 1, y) || !isInside(x, y - 1) || !isInside(x, y + 1)
                switch shading {
                case .solid: return true
                case .open: return edge
                // Every other pixel row from the top, so stripes read as lines (▀ or ▄) across
                // the symbol, inside an outline only at its ends (three rows each). An outline
                // all round, shared with open, took most of a narrow symbol: solid and striped
                // diamonds differed in 0.29 of their pixels at 80×24 (CardLegibilityTests).
                case .striped: return (y - top) % 2 == 0 || (edge && (y - top < Self.cappedRows || bottom - y < Self.cappedRows))
                }
            }
        }
    }

    /// How many pixel rows at a striped symbol's top and at its bottom keep their outline.
    static let cappedRows = 3

    struct Size: Hashable {
        var width: Int
        var height: Int
    }

    /// Silhouettes for the two smallest drawn tiers (see `SymbolTier`), '#' is inside.
    static let handDrawn: [Size: [Shape: [String]]] = [
        Size(width: 6, height: 10): [
            .diamond: ["..##..", "..##..", ".####.", ".####.", "######", "######", ".####.", ".####.", "..##..", "..##.."],
            .oval: [".####.", "######", "######", "######", "######", "######", "######", "######", "######", ".####."],
            // An S that turns into itself when rotated half a turn, like the real squiggle.
            // A band four pixels wide, so striped (lines inside) and open (paper inside) differ
            // in most of its cells: a three-wide band was nearly all outline. Its bends are five
            // wide: with two-row steps the outline took so much of the band that striped and
            // open differed in 0.31 of the open one's pixels (0.46 now, CardLegibilityTests).
            .squiggle: ["..####", ".#####", "#####.", "####..", "#####.", ".#####", "..####", ".#####", "#####.", "####.."],
        ],
        Size(width: 4, height: 8): [
            // Pointed but four wide over four rows: a one-row waist left a single cell of inside,
            // so solid, striped and open differed in one cell.
            .diamond: [".##.", ".##.", "####", "####", "####", "####", ".##.", ".##."],
            .oval: [".##.", "####", "####", "####", "####", "####", "####", ".##."],
            .squiggle: [".###", "###.", "###.", ".###", ".###", "###.", "###.", ".##."],
        ],
    ]

    /// Whether a point of the symbol's box (u, v in −1...1, v downwards) is inside the shape.
    /// `aspect` is rows of samples per column of samples, for round ends that look round.
    static func contains(_ shape: Shape, u: Double, v: Double, aspect: Double) -> Bool {
        switch shape {
        case .diamond:
            return abs(u) + abs(v) <= 1.02
        case .oval:
            // A stadium: straight sides with half-circle ends, circles measured in visual units.
            let halfHeight = max(1, aspect)
            let y = abs(v) * halfHeight
            let beyond = max(0, y - (halfHeight - 1))
            return u * u + beyond * beyond <= 1.0
        case .squiggle:
            // A band whose centre swings like an S and whose ends taper.
            // Three half-waves (right end, left bulge, right bulge, left end) make the ends hook
            // like an S; one wave with a wide band filled the narrow box and read as a blob.
            let centre = 0.5 * sine(1.5 * v * Double.pi)
            let halfWidth = 0.5 * (1 - v * v * v * v * v * v * v * v).squareRoot()
            return abs(u - centre) <= halfWidth
        }
    }

    /// A sine good to a few thousandths, enough for drawing, without needing Foundation.
    private static func sine(_ x: Double) -> Double {
        // The series below holds on −π...π; sin(x) = −sin(x ∓ π) brings the rest there.
        if x > Double.pi { return -sine(x - Double.pi) }
        if x < -Double.pi { return -sine(x + Double.pi) }
        let x2 = x * x
        return x * (1 - x2 / 6 * (1 - x2 / 20 * (1 - x2 / 42 * (1 - x2 / 72 * (1 - x2 / 110)))))
    }
}

/// A grid of pixels, two across and two down per cell, written out with quadrant characters.
struct PixelCanvas: Hashable, Sendable {
    /// Pixels across: two per cell.
    let width: Int
    /// Pixels down: two per cell.
    let height: Int
    private var ink: [Bool]

    /// A blank canvas for `columns` × `rows` cells.
    init(columns: Int, rows: Int) {
        width = 2 * max(0, columns)
        height = 2 * max(0, rows)
        ink = Array(repeating: false, count: width * height)
    }

    /// Whether a pixel is inked; outside the canvas reads as paper and writes are ignored.
    subscript(x: Int, y: Int) -> Bool {
        get { x >= 0 && y >= 0 && x < width && y < height && ink[y * width + x] }
        set { if x >= 0 && y >= 0 && x < width && y < height { ink[y * width + x] = newValue } }
    }

    /// Inks every true pixel of `pixels` with its top-left corner at (x, y).
    mutating func stamp(_ pixels: [[Bool]], x: Int, y: Int) {
        for (row, line) in pixels.enumerated() {
            for (column, on) in line.enumerated() where on { self[x + column, y + row] = true }
        }
    }

    /// One character per cell; spaces are paper.
    var characters: [[Character]] {
        (0..<height / 2).map { row in
            (0..<width / 2).map { column in
                Self.quadrant(topLeft: self[2 * column, 2 * row], topRight: self[2 * column + 1, 2 * row],
                              bottomLeft: self[2 * column, 2 * row + 1], bottomRight: self[2 * column + 1, 2 * row + 1])
            }
        }
    }

    /// The block character whose four quarters match the four flags.
    static func quadrant(topLeft: Bool, topRight: Bool, bottomLeft: Bool, bottomRight: Bool) -> Character {
        let index = (topLeft ? 8 : 0) | (topRight ? 4 : 0) | (bottomLeft ? 2 : 0) | (bottomRight ? 1 : 0)
        return quadrants[index]
    }

    /// The quadrant characters indexed by their four bits (top-left 8, top-right 4, bottom-left 2,
    /// bottom-right 1): tests read pixels back through it.
    static let quadrants: [Character] = [
        " ", "▗", "▖", "▄", "▝", "▐", "▞", "▟", "▘", "▚", "▌", "▙", "▀", "▜", "▛", "█",
    ]
}
