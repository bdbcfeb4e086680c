import SetRules

/// Reads typed fields out of a JSON object, turning every mismatch into a `bad_field` or
/// `missing_field` error that names the field and what it should have been.
struct FieldReader {
    let members: [String: JSONValue]

    init(_ members: [String: JSONValue]) { self.members = members }

    func missing(_ key: String, _ expected: String) -> WireError {
        WireError(.missingField, "\"\(key)\" is required: \(expected).", details: ["field": .string(key)])
    }

    func bad(_ key: String, _ expected: String) -> WireError {
        WireError(.badField, "\"\(key)\" must be \(expected), not \(Self.described(members[key])).", details: ["field": .string(key)])
    }

    /// What a refused value was, for the person reading the error: a number as it came, a string
    /// by its length (never echoed back), anything else by its kind.
    static func described(_ value: JSONValue?) -> String {
        switch value {
        case .int(let number): String(number)
        case .double(let number): "\(number)"
        case .string(let text): text.isEmpty ? "an empty string" : "a string of \(text.count) characters"
        case .bool: "a boolean"
        case .array: "an array"
        case .object: "an object"
        case .null, nil: "nothing"
        }
    }

    /// The value of `key`, treating an explicit null like an absent field.
    func value(_ key: String) -> JSONValue? {
        guard let value = members[key], value != .null else { return nil }
        return value
    }

    func string(_ key: String, _ expected: String = "a string") throws(WireError) -> String? {
        guard let value = value(key) else { return nil }
        guard let text = value.stringValue else { throw bad(key, expected) }
        return text
    }

    func int(_ key: String, in range: ClosedRange<Int64>, _ expected: String) throws(WireError) -> Int64? {
        guard let value = value(key) else { return nil }
        guard let number = value.intValue, range.contains(number) else { throw bad(key, expected) }
        return number
    }

    func choice<T: RawRepresentable & CaseIterable>(_ key: String, _: T.Type) throws(WireError) -> T? where T.RawValue == String {
        guard let value = value(key) else { return nil }
        guard let text = value.stringValue, let choice = T(rawValue: text) else {
            throw bad(key, "one of " + T.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: ", "))
        }
        return choice
    }

    func seat(_ key: String) throws(WireError) -> Seat? {
        let expected = "a seat number, 0 or 1"
        guard let number = try int(key, in: 0...Int64(Seat.allCases.count - 1), expected) else { return nil }
        guard let seat = Seat(rawValue: Int(number)) else { throw bad(key, expected) }
        return seat
    }

    /// A card as its id 0–80 or, for people typing by hand, its name.
    func card(_ key: String) throws(WireError) -> Card? {
        guard let value = value(key) else { return nil }
        if let id = value.intValue, let card = Card(id: Int(id)) { return card }
        if let name = value.stringValue, let card = Card(name: name) { return card }
        throw bad(key, "a card id 0-80 or a card name like \"2 striped green diamonds\"")
    }
}
