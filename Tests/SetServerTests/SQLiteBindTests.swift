import Foundation
import SetDatabase
import SetTestSupport
import Testing

/// Texts bound from the connection's own buffer (`SQLiteDatabase.bind`, `SQLITE_STATIC`) read
/// back exactly: empty texts stay texts, not NULL; many texts in one statement, each its own;
/// a statement whose texts outgrow the buffer, and a smaller one after it; values bound from a
/// slice of a larger array (`execute(_:slice:)`) land in their own parameters.
@Suite struct SQLiteBindTests {
    @Test func textsBoundFromTheConnectionsBufferReadBackExactly() throws {
        let database = try SQLiteDatabase(path: nil)
        try database.execute("CREATE TABLE t (n INTEGER PRIMARY KEY, a, b, c)")
        let long = String(repeating: "ab\u{e9}\u{1F0CF}", count: 50_000)
        let rows: [[SQLValue]] = [
            [.int(1), .text(""), .null, .text("x")],
            [.int(2), .text("caf\u{e9}"), .text("\u{0430}nn"), .text("")],
            [.int(3), .text(long), .text("after the long one"), .int(7)],
            [.int(4), .text("small again"), .double(1.5), .text("z\u{0}z")],
        ]
        for row in rows {
            try database.execute("INSERT INTO t (n, a, b, c) VALUES ($1, $2, $3, $4)", row)
        }
        let read = try database.query("SELECT n, a, b, c FROM t ORDER BY n").map(\.values)
        #expect(read == rows)
        #expect(try database.row("SELECT COUNT(*) FROM t WHERE a IS NULL")?.int(0) as Int? == 0)
        // A statement binding the texts it reads by: the buffer holds them while it steps.
        #expect(try database.query("SELECT n FROM t WHERE a = $1 OR c = $2 ORDER BY n", .text(long), .text("x")).map { try $0.int(0) as Int } == [1, 3])
    }

    @Test func valuesFromASliceLandInTheirOwnParameters() throws {
        let database = try SQLiteDatabase(path: nil)
        try database.execute("CREATE TABLE t (n INTEGER, a TEXT)")
        let values: [SQLValue] = [.int(0), .text("zero"), .int(1), .text("one"), .int(2), .text("two"), .int(3), .text("three")]
        try database.execute("INSERT INTO t (n, a) VALUES (?, ?), (?, ?)", slice: values[2..<6])
        #expect(try database.query("SELECT n, a FROM t ORDER BY n").map(\.values) == [[.int(1), .text("one")], [.int(2), .text("two")]])
    }
}
