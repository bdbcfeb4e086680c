/// A JSON document as a value. The wire uses its own small JSON so that it controls depth limits,
/// error positions, key order and speed; Foundation's coders are not on the hot path.
package enum JSONValue: Hashable, Sendable {
    case null
    case bool(Bool)
    /// A number written without fraction or exponent that fits in 64 bits.
    case int(Int64)
    case double(Double)
    case string(String)
    case array([JSONValue])
    /// Keys are unordered here; the writer sorts them, so output is stable.
    case object([String: JSONValue])

    /// The member named `key` of an object; nil for a missing key or a non-object.
    package subscript(key: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        return members[key]
    }

    package var stringValue: String? {
        guard case .string(let text) = self else { return nil }
        return text
    }

    /// An integer, also from a double with no fractional part that fits in 64 bits.
    package var intValue: Int64? {
        switch self {
        case .int(let value): return value
        case .double(let value) where value.rounded() == value && abs(value) < 9.2e18: return Int64(value)
        default: return nil
        }
    }

    package var boolValue: Bool? {
        guard case .bool(let flag) = self else { return nil }
        return flag
    }

    package var arrayValue: [JSONValue]? {
        guard case .array(let items) = self else { return nil }
        return items
    }

    package var objectValue: [String: JSONValue]? {
        guard case .object(let members) = self else { return nil }
        return members
    }

    /// The JSON type's name, for error messages.
    package var typeName: String {
        switch self {
        case .null: "null"
        case .bool: "boolean"
        case .int, .double: "number"
        case .string: "string"
        case .array: "array"
        case .object: "object"
        }
    }
}

extension JSONValue: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByBooleanLiteral,
    ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral, ExpressibleByNilLiteral {
    package init(stringLiteral value: String) { self = .string(value) }
    package init(integerLiteral value: Int64) { self = .int(value) }
    package init(booleanLiteral value: Bool) { self = .bool(value) }
    package init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
    package init(dictionaryLiteral elements: (String, JSONValue)...) {
        self = .object(Dictionary(elements, uniquingKeysWith: { _, last in last }))
    }
    package init(nilLiteral: ()) { self = .null }
}
