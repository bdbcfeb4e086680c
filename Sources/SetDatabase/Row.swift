/// One row of a result, its columns in the order the query names them, read by type.
package struct Row: Equatable, Sendable {
    package var values: [SQLValue]

    package init(_ values: [SQLValue]) { self.values = values }

    package func isNull(_ column: Int) -> Bool { values[column] == .null }

    package func int(_ column: Int) throws(DatabaseError) -> Int64 {
        guard case .int(let value) = values[column] else { throw mismatch(column, "an integer") }
        return value
    }

    package func int(_ column: Int) throws(DatabaseError) -> Int { Int(try int(column) as Int64) }

    package func optionalInt(_ column: Int) throws(DatabaseError) -> Int? { isNull(column) ? nil : try int(column) as Int }

    package func bool(_ column: Int) throws(DatabaseError) -> Bool { try int(column) as Int64 != 0 }

    /// A real number; an integer column reads as one too (SQLite keeps 1500.0 as 1500 when
    /// a column has no declared type).
    package func double(_ column: Int) throws(DatabaseError) -> Double {
        switch values[column] {
        case .double(let value): return value
        case .int(let value): return Double(value)
        default: throw mismatch(column, "a number")
        }
    }

    package func optionalDouble(_ column: Int) throws(DatabaseError) -> Double? { isNull(column) ? nil : try double(column) }

    package func text(_ column: Int) throws(DatabaseError) -> String {
        guard case .text(let value) = values[column] else { throw mismatch(column, "text") }
        return value
    }

    package func optionalText(_ column: Int) throws(DatabaseError) -> String? { isNull(column) ? nil : try text(column) }

    private func mismatch(_ column: Int, _ wanted: String) -> DatabaseError {
        DatabaseError(.invalidStatement, "column \(column) holds \(values[column]), not \(wanted)")
    }
}
