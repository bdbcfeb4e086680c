import SetRules

/// One card as the current frame draws it.
struct Sprite: Hashable, Sendable {
    var card: Card
    var rect: Rect
    /// Still travelling from the deck pile, back up.
    var faceDown: Bool
    /// On its way off the table.
    var leaving: Bool
    /// A taken set's short celebration before it leaves.
    var flourishing: Bool
    /// A taken set on its way to the taker's score, after its celebration.
    var flying = false
}

/// The pure animation model: for each card, where it flies from and to, when, and how fast. It is
/// told the table's target rectangles whenever they change and answers, for any instant, where
/// every card is. It never holds anything up: the table is already what the server said, the
/// motion only shows the way there.
struct Motion: Equatable, Sendable {
    /// Where new cards come from.
    enum Entry: Hashable, Sendable {
        /// From random places off screen, after a short empty pause: a first table or a new game.
        case scatter
        /// From the deck pile, face down, turning face up as they land; scatter when no pile shows.
        case deck
        /// In place at once, no flight: the first table a session shows. A player who has just
        /// connected (an ssh login above all) wants to play, not to watch cards arrive: a fly-in
        /// here was 0.39 s of the door's 0.57 s from `ssh` to twelve cards (README, Door figures).
        case arrival
    }

    /// One card's journey.
    struct Track: Hashable, Sendable {
        var card: Card
        var from: Rect
        var to: Rect
        var start: Int64
        var duration: Int64
        /// Progress (0–1) at which a face-down card turns up; nil: face up all along.
        var flipAt: Double?
        /// Leaving cards with a flourish stay in place, celebrating, until `start`.
        var flourishFrom: Int64?
        /// Leaving cards speed up as they go; arriving ones slow down as they land.
        var easesIn = false

        /// Progress 0–1 at `now`.
        func progress(at now: Int64) -> Double {
            guard duration > 0 else { return now >= start ? 1 : 0 }
            return min(1, max(0, Double(now - start) / Double(duration)))
        }

        var end: Int64 { start + duration }
    }

    /// Timings in milliseconds.
    static let enterDuration: Int64 = 450
    static let moveDuration: Int64 = 280
    static let leaveDuration: Int64 = 380
    /// A taken set celebrates in place this long, then flies to its taker's score.
    static let flourishDuration: Int64 = 700
    static let flightDuration: Int64 = 520
    static let scatterPause: Int64 = 250
    static let scatterStagger: Int64 = 35
    static let dealStagger: Int64 = 90

    let enabled: Bool
    private(set) var tracks: [Int: Track] = [:]
    private(set) var leaving: [Int: Track] = [:]
    private var generator: SplitMix64

    /// A model with nothing on the table; `seed` fixes the random off-screen places.
    init(enabled: Bool, seed: UInt64 = 0x5E7) {
        self.enabled = enabled
        generator = SplitMix64(seed: seed)
    }

    /// Sends every card to its new place. Cards new to the table enter as `entry` says, cards no
    /// longer in `targets` leave (those in `flourish` celebrate first, then fly to `flyTo`, the
    /// taker's score, when given), others glide from where they are now. Cards dealt to replace a
    /// celebrating set wait until the celebration is over.
    mutating func retarget(_ targets: [(card: Card, rect: Rect)], bounds: Rect, entry: Entry,
                                  deckPile: Rect?, flourish: [Card] = [], flyTo: Rect? = nil, at now: Int64) {
        guard enabled else {
            tracks = Dictionary(targets.map { ($0.card.id, Track(card: $0.card, from: $0.rect, to: $0.rect, start: now, duration: 0)) },
                                uniquingKeysWith: { a, _ in a })
            leaving = [:]
            return
        }
        var next: [Int: Track] = [:]
        let wanted = Swift.Set(targets.map(\.card.id))
        // Leavers first, so a scatter entry knows whether to wait for them.
        for (id, track) in tracks where !wanted.contains(id) {
            let here = position(of: track, at: now)
            let celebrates = flourish.contains(track.card)
            let start = celebrates ? now + Self.flourishDuration : now
            let to = celebrates ? flyTo ?? offscreen(like: here, in: bounds) : offscreen(like: here, in: bounds)
            leaving[id] = Track(card: track.card, from: here, to: to, start: start,
                                duration: celebrates ? Self.flightDuration : Self.leaveDuration,
                                flourishFrom: celebrates ? now : nil, easesIn: true)
        }
        let celebrating = leaving.values.contains { $0.flourishFrom == now }
        let pause: Int64 = switch entry {
        case .scatter: leaving.isEmpty ? Self.scatterPause : Self.leaveDuration + Self.scatterPause
        case .arrival: 0
        case .deck: celebrating ? Self.flourishDuration : 0
        }
        var entering = 0
        for (card, rect) in targets where next[card.id] == nil {
            if let track = tracks[card.id] ?? leaving[card.id] {
                leaving[card.id] = nil
                guard track.to != rect || track.flourishFrom != nil else {
                    next[card.id] = track
                    continue
                }
                let faceDown = isFaceDown(track, at: now)
                next[card.id] = Track(card: card, from: position(of: track, at: now), to: rect, start: now,
                                      duration: Self.moveDuration, flipAt: faceDown ? 0.8 : nil)
                continue
            }
            guard entry != .arrival else {
                next[card.id] = Track(card: card, from: rect, to: rect, start: now, duration: 0)
                continue
            }
            let fromPile = entry == .deck ? deckPile : nil
            let from = fromPile.map { Self.scaled($0, toHeightOf: rect) } ?? offscreen(like: rect, in: bounds)
            let stagger = fromPile != nil ? Self.dealStagger : Self.scatterStagger
            next[card.id] = Track(card: card, from: from, to: rect, start: now + pause + Int64(entering) * stagger,
                                  duration: Self.enterDuration, flipAt: fromPile != nil ? 0.8 : nil)
            entering += 1
        }
        tracks = next
    }

    /// Where every card is at `now`: leaving cards first so the table draws over them, except a
    /// celebrating set, which is drawn last, over everything, on its way to the score.
    func sprites(at now: Int64) -> [Sprite] {
        var result: [Sprite] = [], celebrating: [Sprite] = []
        for track in leaving.values.sorted(by: { $0.card < $1.card }) {
            if let since = track.flourishFrom, now < track.start {
                celebrating.append(Sprite(card: track.card, rect: hop(track.from, since: since, at: now), faceDown: false,
                                          leaving: true, flourishing: true))
            } else if now < track.end {
                let sprite = Sprite(card: track.card, rect: position(of: track, at: now), faceDown: false,
                                    leaving: true, flourishing: false, flying: track.flourishFrom != nil)
                if track.flourishFrom != nil { celebrating.append(sprite) } else { result.append(sprite) }
            }
        }
        // Cards still in flight draw last, over the settled ones.
        let ordered = tracks.values.sorted { a, b in
            let aMoving = a.progress(at: now) < 1, bMoving = b.progress(at: now) < 1
            return aMoving == bMoving ? a.card < b.card : !aMoving
        }
        for track in ordered {
            // A card waiting for its turn sits under the pile or off screen: not drawn yet.
            if now < track.start && track.from != track.to && track.flipAt != nil { continue }
            result.append(Sprite(card: track.card, rect: position(of: track, at: now), faceDown: isFaceDown(track, at: now),
                                 leaving: false, flourishing: false))
        }
        return result + celebrating
    }

    /// Whether a card on the table shows its face at `now`: not one still waiting for a taken set's
    /// celebration to end, off screen or face down on its way in. A card the model does not move
    /// (the chain strip's) always shows.
    func isShowing(_ card: Card, at now: Int64) -> Bool {
        guard let track = tracks[card.id] else { return leaving[card.id].map { now >= $0.end } ?? true }
        return now >= track.start && !isFaceDown(track, at: now)
    }

    /// True while anything moves or waits to move: the app draws frames only then.
    func isAnimating(at now: Int64) -> Bool {
        leaving.values.contains { now < $0.end } || tracks.values.contains { now < $0.end && $0.from != $0.to }
    }

    /// Forgets cards that have left; call now and then so the model stays small.
    mutating func prune(at now: Int64) {
        leaving = leaving.filter { now < $0.value.end }
    }

    // MARK: Geometry

    func position(of track: Track, at now: Int64) -> Rect {
        let t = track.progress(at: now)
        let eased = track.easesIn ? t * t * t : 1 - (1 - t) * (1 - t) * (1 - t)
        return Self.interpolate(track.from, track.to, eased)
    }

    private func isFaceDown(_ track: Track, at now: Int64) -> Bool {
        guard let flip = track.flipAt else { return false }
        return track.progress(at: now) < flip
    }

    /// A rectangle between two cards: centres and heights blend, and the width follows the height
    /// by the card formula, so a card keeps its shape while it grows or shrinks.
    static func interpolate(_ a: Rect, _ b: Rect, _ t: Double) -> Rect {
        func mix(_ x: Double, _ y: Double) -> Double { x + (y - x) * t }
        let height = Int(mix(Double(a.height), Double(b.height)).rounded())
        let width = a.width == 2 * a.height - 1 && b.width == 2 * b.height - 1 ? 2 * height - 1
            : Int(mix(Double(a.width), Double(b.width)).rounded())
        let centreColumn = mix(Double(a.column) + Double(a.width) / 2, Double(b.column) + Double(b.width) / 2)
        let centreRow = mix(Double(a.row) + Double(a.height) / 2, Double(b.row) + Double(b.height) / 2)
        return Rect(column: Int((centreColumn - Double(width) / 2).rounded()), row: Int((centreRow - Double(height) / 2).rounded()),
                    width: width, height: height)
    }

    /// The pile's place with a card's size, so a dealt card does not change size mid-flight.
    static func scaled(_ pile: Rect, toHeightOf card: Rect) -> Rect {
        Rect(column: pile.column + (pile.width - card.width) / 2, row: pile.row + (pile.height - card.height) / 2,
             width: card.width, height: card.height)
    }

    /// A flourish: the card hops up one row in the middle of its celebration.
    private func hop(_ rect: Rect, since: Int64, at now: Int64) -> Rect {
        let t = Double(now - since) / Double(Self.flourishDuration)
        var lifted = rect
        if t > 0.25 && t < 0.75 { lifted.row -= 1 }
        return lifted
    }

    /// Whether a celebrating card shows its sparkles at `now`: they blink every 120 ms.
    static func sparkles(at now: Int64) -> Bool { (now / 120) % 2 == 0 }

    /// A random place just beyond one of the four edges for a card of `card`'s size.
    private mutating func offscreen(like card: Rect, in bounds: Rect) -> Rect {
        var rect = card
        let spread = { (range: Int, g: inout SplitMix64) in g.uniform(below: max(1, range)) }
        switch generator.uniform(below: 4) {
        case 0:
            rect.column = bounds.column - card.width - spread(card.width, &generator)
            rect.row = bounds.row - card.height + spread(bounds.height + card.height, &generator)
        case 1:
            rect.column = bounds.endColumn + spread(card.width, &generator)
            rect.row = bounds.row - card.height + spread(bounds.height + card.height, &generator)
        case 2:
            rect.column = bounds.column - card.width + spread(bounds.width + card.width, &generator)
            rect.row = bounds.row - card.height - spread(card.height, &generator)
        default:
            rect.column = bounds.column - card.width + spread(bounds.width + card.width, &generator)
            rect.row = bounds.endRow + spread(card.height, &generator)
        }
        return rect
    }
}
