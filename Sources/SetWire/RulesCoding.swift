import SetRules

// How the rules' values look on the wire. Cards are ids; seats are 0 and 1; instants are
// server milliseconds.
extension JSONValue {
    static func cards(_ cards: [Card]) -> JSONValue { .array(cards.map { .int(Int64($0.id)) }) }
    static func seat(_ seat: Seat?) -> JSONValue { seat.map { .int(Int64($0.rawValue)) } ?? .null }
    static func int(_ value: Int) -> JSONValue { .int(Int64(value)) }

    static func window(_ window: Window?) -> JSONValue {
        guard let window else { return .null }
        return ["kind": .string(window.kind.rawValue), "holder": .seat(window.holder),
                "opened": .int(window.opened.milliseconds), "deadline": .int(window.deadline.milliseconds),
                "durationMs": .int(window.deadline.milliseconds(since: window.opened))]
    }

    static func result(_ result: MatchResult?) -> JSONValue {
        guard let result else { return .null }
        return ["reason": .string(result.reason.rawValue), "by": .seat(result.by),
                "scores": .array(result.scores.map { .int($0) }), "winner": .seat(result.winner)]
    }

    static func rules(_ settings: RuleSettings) -> JSONValue {
        var members: [String: JSONValue] = [:]
        for key in RuleSettings.Key.allCases {
            members[key.rawValue] = switch key.value(in: settings) {
            case .milliseconds(let ms): .int(ms)
            case .points(let points): .int(points)
            case .flag(let flag): .bool(flag)
            }
        }
        return .object(members)
    }

    /// Seeds are 64-bit: as decimal strings they survive clients whose numbers are doubles.
    static func seed(_ seed: UInt64?) -> JSONValue { seed.map { .string(String($0)) } ?? .null }
}

extension FieldReader {
    func required<T>(_ key: String, _ expected: String, _ read: (String) throws(WireError) -> T?) throws(WireError) -> T {
        guard let value = try read(key) else { throw missing(key, expected) }
        return value
    }

    /// Distinct card ids, at most `limit` of them (a trio unless told): more, or a card twice, is
    /// something the rules never produce.
    func cards(_ key: String, upTo limit: Int = WireRange.trio) throws(WireError) -> [Card] {
        guard let items = value(key)?.arrayValue else { throw bad(key, "an array of card ids") }
        guard items.count <= limit else { throw bad(key, "an array of at most \(limit) card ids") }
        var cards: [Card] = []
        var seen = Swift.Set<Card>()
        for item in items {
            guard let id = item.intValue, let card = Card(id: Int(id)) else { throw bad(key, "an array of card ids 0-80") }
            guard seen.insert(card).inserted else { throw bad(key, "an array of distinct card ids") }
            cards.append(card)
        }
        return cards
    }

    func object(_ key: String) throws(WireError) -> FieldReader? {
        guard let value = value(key) else { return nil }
        guard let members = value.objectValue else { throw bad(key, "an object") }
        return FieldReader(members)
    }

    func window(_ key: String) throws(WireError) -> Window? {
        guard let fields = try object(key) else { return nil }
        let window = Window(
            kind: try fields.required("kind", "a window kind") { k throws(WireError) in try fields.choice(k, WindowKind.self) },
            holder: try fields.required("holder", "a seat") { k throws(WireError) in try fields.seat(k) },
            opened: Instant(milliseconds: try fields.serverTimeRequired("opened")),
            deadline: Instant(milliseconds: try fields.serverTimeRequired("deadline")))
        guard WireRange.windowMs.contains(window.deadline.milliseconds - window.opened.milliseconds) else {
            throw bad(key, "a window whose deadline is 0 to \(WireRange.windowMs.upperBound) ms after it opened")
        }
        return window
    }

    func result(_ key: String) throws(WireError) -> MatchResult? {
        guard let fields = try object(key) else { return nil }
        return try fields.resultFields()
    }

    func resultFields() throws(WireError) -> MatchResult {
        MatchResult(
            reason: try required("reason", "an end reason") { k throws(WireError) in try choice(k, MatchResult.Reason.self) },
            by: try seat("by"),
            scores: try scores("scores"),
            winner: try seat("winner"))
    }

    func scores(_ key: String) throws(WireError) -> [Int] {
        guard let items = value(key)?.arrayValue, items.count <= Seat.allCases.count else { throw bad(key, "an array of one or two scores") }
        var scores: [Int] = []
        for item in items {
            guard let score = item.intValue, WireRange.score.contains(score) else { throw bad(key, "an array of integer scores within ±2^53") }
            scores.append(Int(score))
        }
        return scores
    }

    func rules(_ key: String) throws(WireError) -> RuleSettings {
        guard let fields = try object(key) else { throw missing(key, "the rules object") }
        var settings = RuleSettings.standard
        for ruleKey in RuleSettings.Key.allCases {
            guard let value = fields.value(ruleKey.rawValue) else { continue }
            let text = switch value {
            case .bool(let flag): flag ? "on" : "off"
            case .int(let number): String(number)
            default: ""
            }
            if ruleKey.assign(text, to: &settings) != nil { throw bad(key, "rule settings") }
        }
        if let problem = settings.validationProblem() {
            throw WireError(.badField, "\"\(key)\" is out of range: \(problem).", details: ["field": .string(key)])
        }
        return settings
    }

    func seedValue(_ key: String) throws(WireError) -> UInt64? {
        guard let text = try string(key, "a decimal string") else { return nil }
        guard let seed = UInt64(text) else { throw bad(key, "a decimal string of an unsigned 64-bit seed") }
        return seed
    }
}
