import CPostgres
import Glibc

/// Rows into a PostgreSQL table in bulk (issue 43): `COPY … FROM STDIN` in its text format is one
/// statement for any number of rows, which the server neither parses as SQL nor binds value by
/// value; libpq streams them (`PQputCopyData`, `PQputCopyEnd`) and the answer comes once at the end.
extension PostgresDatabase {
    /// Rows sent to libpq at a time: a few hundred kilobytes, so a million rows never sit in one buffer.
    static let copyChunkBytes = 1 << 18

    /// Writes rows into `table`: `values` holds them one after another, each its `columns`' values
    /// in order. The number of rows the server says it took. A failure (a unique violation, a lost
    /// connection) is the same `DatabaseError` a statement's would be; inside a transaction, none
    /// of the rows are kept.
    @discardableResult
    package func copy(into table: String, columns: [String], values: ArraySlice<SQLValue>) throws(DatabaseError) -> Int {
        let sql = "COPY \(table) (\(columns.joined(separator: ", "))) FROM STDIN"
        guard !columns.isEmpty, values.count % columns.count == 0 else {
            throw DatabaseError(.invalidStatement, "\(values.count) values are not rows of \(columns.count) columns in: \(sql)")
        }
        let connection = try liveConnection(for: sql)
        guard PQsendQuery(connection, sql) != 0 else { throw lost(sql) }
        guard let started = try answer(to: sql, on: connection) else { throw lost(sql) }
        let status = PQresultStatus(started)
        defer { PQclear(started) }
        guard status == PGRES_COPY_IN else {
            throw status == PGRES_FATAL_ERROR ? failure(started, sql) : DatabaseError(.invalidStatement, "no copy began in: \(sql)")
        }
        var buffer: [UInt8] = []
        buffer.reserveCapacity(Self.copyChunkBytes + 4_096)
        for start in stride(from: values.startIndex, to: values.endIndex, by: columns.count) {
            PostgresCopyText.append(values[start..<start + columns.count], to: &buffer)
            guard buffer.count >= Self.copyChunkBytes else { continue }
            try send(buffer, for: sql, on: connection)
            buffer.removeAll(keepingCapacity: true)
        }
        if !buffer.isEmpty { try send(buffer, for: sql, on: connection) }
        guard PQputCopyEnd(connection, nil) == 1, let result = try answer(to: sql, on: connection) else { throw lost(sql) }
        defer { PQclear(result) }
        guard PQresultStatus(result) == PGRES_COMMAND_OK else { throw failure(result, sql) }
        return PQcmdTuples(result).flatMap { Int(String(cString: $0)) } ?? 0
    }

    private func send(_ bytes: [UInt8], for sql: String, on connection: OpaquePointer) throws(DatabaseError) {
        let sent = bytes.withUnsafeBufferPointer { chunk in
            chunk.withMemoryRebound(to: CChar.self) { PQputCopyData(connection, $0.baseAddress, Int32($0.count)) }
        }
        guard sent == 1 else { throw lost(sql) }
    }
}

/// COPY's text format, one row a line: values apart by tabs, NULL as `\N`, and in a text the four
/// bytes that would end a value or a row (backslash, tab, newline, carriage return) escaped with a
/// backslash; every other byte, UTF-8 included, goes as it is. Numbers are written as the
/// statements' parameters write them, so a value reads back the same either way.
package enum PostgresCopyText {
    /// Appends `row` as one line of COPY text to `buffer`.
    package static func append(_ row: ArraySlice<SQLValue>, to buffer: inout [UInt8]) {
        for (index, value) in zip(row.indices, row) {
            if index > row.startIndex { buffer.append(UInt8(ascii: "\t")) }
            switch value {
            case .null: buffer.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "N")])
            case .int(let number): buffer.append(contentsOf: String(number).utf8)
            case .double(let number): buffer.append(contentsOf: String(number).utf8)
            case .text(let text): appendEscaped(text, to: &buffer)
            }
        }
        buffer.append(UInt8(ascii: "\n"))
    }

    private static func appendEscaped(_ text: String, to buffer: inout [UInt8]) {
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\\"): buffer.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\\")])
            case UInt8(ascii: "\t"): buffer.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "t")])
            case UInt8(ascii: "\n"): buffer.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "n")])
            case UInt8(ascii: "\r"): buffer.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "r")])
            default: buffer.append(byte)
            }
        }
    }
}
