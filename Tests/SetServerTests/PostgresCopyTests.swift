@testable import SetDatabase
import SetTestSupport
import Testing

/// Issue 43: the import writes PostgreSQL's rows with `COPY … FROM STDIN` (text format). Every
/// value reads back as it was sent, however hostile its text; a refused copy is an error like a
/// statement's, leaves the connection usable, and inside a transaction keeps none of its rows.
@Suite struct PostgresCopyTests {
    /// Texts that would end a value or a row, or be read as an escape or a NULL, if sent as they are.
    static let hostile = [
        "tab\there", "back\\slash", "new\nline", "carriage\rreturn", "both\r\n", "\\N", "\\.", "\\", "'single' \"double\"",
        "naïve café 日本語 🃏", "", " leading and trailing ", "\\t not a tab", "end\\",
    ]

    static func flat(_ rows: [[SQLValue]]) -> ArraySlice<SQLValue> { ArraySlice(rows.joined()) }

    @Test func aRowIsOneLineOfTabSeparatedEscapedValues() {
        var buffer: [UInt8] = []
        PostgresCopyText.append([.int(-7), .null, .double(1500.25), .text("a\tb\\c\nd\re 'é'"), .text("")][...], to: &buffer)
        PostgresCopyText.append([.text("\\N")][...], to: &buffer)
        #expect(String(decoding: buffer, as: UTF8.self) == "-7\t\\N\t1500.25\ta\\tb\\\\c\\nd\\re 'é'\t\n\\\\N\n")
    }

    @Test func hostileTextsNumbersAndNullsReadBackAsTheyWereSent() throws {
        guard let subject = try TestDatabase.make(.postgres), let database = subject.database as? PostgresDatabase else { return }
        try database.execute("CREATE TABLE copied (id BIGINT PRIMARY KEY, name TEXT, rating DOUBLE PRECISION, count BIGINT)")
        var rows: [[SQLValue]] = Self.hostile.enumerated().map { [.int($0.offset), .text($0.element), .double(1500.0 + Double($0.offset) / 3), .null] }
        rows.append([.int(100), .null, .double(0.06), .int(Int64.min)])
        rows.append([.int(101), .text("max"), .double(-1e-300), .int(Int64.max)])
        #expect(try database.copy(into: "copied", columns: ["id", "name", "rating", "count"], values: Self.flat(rows)) == rows.count)
        let read = try database.query("SELECT id, name, rating, count FROM copied ORDER BY id").map(\.values)
        #expect(read == rows)
    }

    /// Many rows go over several of libpq's chunks in one COPY.
    @Test func rowsBeyondOneChunkAreAllTaken() throws {
        guard let subject = try TestDatabase.make(.postgres), let database = subject.database as? PostgresDatabase else { return }
        try database.execute("CREATE TABLE many (id BIGINT PRIMARY KEY, name TEXT NOT NULL)")
        let count = 3 * PostgresDatabase.copyChunkBytes / 20
        let rows = (0..<count).map { [SQLValue.int($0), .text("name \($0)\tof\nmany")] }
        #expect(try database.copy(into: "many", columns: ["id", "name"], values: Self.flat(rows)) == count)
        #expect(try database.row("SELECT COUNT(*), MAX(id) FROM many")?.values == [.int(count), .int(count - 1)])
        #expect(try database.row("SELECT name FROM many WHERE id = 1234")?.values == [.text("name 1234\tof\nmany")])
    }

    @Test func aRefusedCopyIsAnErrorTheConnectionOutlivesAndATransactionUndoes() throws {
        guard let subject = try TestDatabase.make(.postgres), let database = subject.database as? PostgresDatabase else { return }
        try database.execute("CREATE TABLE kept (id BIGINT PRIMARY KEY, name TEXT NOT NULL)")
        try database.copy(into: "kept", columns: ["id", "name"], values: [.int(1), .text("one")])
        let twice: [[SQLValue]] = [[.int(2), .text("two")], [.int(1), .text("one again")]]
        #expect { try database.copy(into: "kept", columns: ["id", "name"], values: Self.flat(twice)) } throws: { ($0 as? DatabaseError)?.code == .uniqueViolation }
        #expect { try database.copy(into: "kept", columns: ["id", "name"], values: [.int(3), .null]) } throws: {
            ($0 as? DatabaseError)?.code == .invalidStatement
        }
        #expect { try database.copy(into: "missing", columns: ["id"], values: [.int(3)]) } throws: { ($0 as? DatabaseError)?.code == .invalidStatement }
        #expect { try database.copy(into: "kept", columns: ["id", "name"], values: [.int(3)]) } throws: { ($0 as? DatabaseError)?.code == .invalidStatement }
        #expect(try database.query("SELECT id FROM kept").map(\.values) == [[.int(1)]])
        #expect(throws: DatabaseError.self) {
            try database.transaction { () throws(DatabaseError) in
                try database.copy(into: "kept", columns: ["id", "name"], values: [.int(4), .text("four")])
                #expect(try database.row("SELECT COUNT(*) FROM kept")?.int(0) as Int? == 2)
                throw DatabaseError(.unavailable, "the import was cut")
            }
        }
        #expect(try database.query("SELECT id FROM kept").map(\.values) == [[.int(1)]])
    }
}
