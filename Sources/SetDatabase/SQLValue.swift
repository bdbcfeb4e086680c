/// A value bound to a statement's parameter or read from a row: never spliced into SQL text.
package enum SQLValue: Equatable, Sendable, CustomStringConvertible {
    case null
    case int(Int64)
    case double(Double)
    case text(String)

    package static func int(_ value: Int) -> SQLValue { .int(Int64(value)) }

    package static func bool(_ value: Bool) -> SQLValue { .int(value ? 1 : 0) }

    package static func optional(_ value: Int?) -> SQLValue { value.map { .int(Int64($0)) } ?? .null }

    package static func optional(_ value: Double?) -> SQLValue { value.map { .double($0) } ?? .null }

    package var description: String {
        switch self {
        case .null: "NULL"
        case .int(let value): String(value)
        case .double(let value): String(value)
        case .text(let value): value
        }
    }
}
