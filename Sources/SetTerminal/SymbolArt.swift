import SetRules

/// Draws one card symbol at any size from its mathematical outline, sampled at 2×2 points per
/// cell and written with quadrant block characters, so shapes keep their look as cards grow.
public enum SymbolArt {
    /// The characters of one symbol, `height` rows of `width` cells; spaces are paper.
    public static func rows(_ shape: Shape, _ shading: Shading, width: Int, height: Int) -> [[Character]] {
        let columns = 2 * max(0, width), lines = 2 * max(0, height)
        let aspect = Double(lines) / Double(max(1, columns))
        var inside = [[Bool]](repeating: [Bool](repeating: false, count: columns), count: lines)
        for y in 0..<lines {
            for x in 0..<columns {
                let u = (Double(x) + 0.5) / Double(columns) * 2 - 1
                let v = (Double(y) + 0.5) / Double(lines) * 2 - 1
                inside[y][x] = contains(shape, u: u, v: v, aspect: aspect)
            }
        }
        func isInside(_ x: Int, _ y: Int) -> Bool {
            x >= 0 && y >= 0 && x < columns && y < lines && inside[y][x]
        }
        func isInk(_ x: Int, _ y: Int) -> Bool {
            guard isInside(x, y) else { return false }
            let edge = !isInside(x - 1, y) || !isInside(x + 1, y) || !isInside(x, y - 1) || !isInside(x, y + 1)
            switch shading {
            case .solid: return true
            case .open: return edge
            // Stripes across the symbol, one per cell row, plus the outline that holds them.
            case .striped: return edge || y % 2 == 0
            }
        }
        return (0..<max(0, height)).map { row in
            (0..<max(0, width)).map { column in
                quadrant(topLeft: isInk(2 * column, 2 * row), topRight: isInk(2 * column + 1, 2 * row),
                         bottomLeft: isInk(2 * column, 2 * row + 1), bottomRight: isInk(2 * column + 1, 2 * row + 1))
            }
        }
    }

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
            let centre = 0.42 * sine(v * Double.pi)
            let halfWidth = 0.55 * (1 - v * v * v * v * v * v).squareRoot()
            return abs(u - centre) <= halfWidth
        }
    }

    /// A sine good to a few thousandths on −π...π, enough for drawing, without needing Foundation.
    private static func sine(_ x: Double) -> Double {
        let x2 = x * x
        return x * (1 - x2 / 6 * (1 - x2 / 20 * (1 - x2 / 42 * (1 - x2 / 72 * (1 - x2 / 110)))))
    }

    /// The block character whose four quarters match the four flags.
    static func quadrant(topLeft: Bool, topRight: Bool, bottomLeft: Bool, bottomRight: Bool) -> Character {
        let index = (topLeft ? 8 : 0) | (topRight ? 4 : 0) | (bottomLeft ? 2 : 0) | (bottomRight ? 1 : 0)
        return quadrants[index]
    }

    private static let quadrants: [Character] = [
        " ", "▗", "▖", "▄", "▝", "▐", "▞", "▟", "▘", "▚", "▌", "▙", "▀", "▜", "▛", "█",
    ]
}
