import CSQLite

/// A SQLite database through the system's libsqlite3: a file (WAL, every commit synced, so an
/// acknowledged change survives kill -9 and a power cut) or, with no path, memory only.
package final class SQLiteDatabase: Database {
    package let dialect = SQLDialect.sqlite
    /// The file, or nil in memory.
    package let path: String?
    private let connection: OpaquePointer
    /// Prepared statements by their text: the store asks the same few questions again and again.
    private var statements: [String: OpaquePointer] = [:]
    private var inTransaction = false
    /// Set by `close()`: the connection is gone and every later call says unavailable.
    private var isClosed = false
    /// The bytes of the texts bound to the statement running now (`bind`).
    private var texts = BindBuffer()

    /// How long a statement waits for another connection's write lock before it reports the
    /// database unavailable.
    package static let busyMilliseconds: Int32 = 5_000

    /// How much of the file a read-only connection maps (`mmap_size`): none, said out loud so no
    /// build's default decides. A reader beside a writer drops its whole map (and its page cache)
    /// whenever another connection has committed since its last read; unmapping what it had
    /// faulted in and faulting it in again cost the account questions more than a `pread` of each
    /// page they need. SQLite 100k accounts / 200k games, 1,000 duels and rated games committing,
    /// two alternating pairs (11-30, 01:0x): `history` p99 1.73–1.90 ms unmapped, 3.11–3.73 mapped
    /// (1 GiB).
    package static let readerMapBytes = 0

    /// Opens (creating) the file at `path`, or a database in memory when it is nil. `readOnly`:
    /// opens an existing file to read it, beside a server that may be writing it (WAL lets it).
    package init(path: String?, readOnly: Bool = false) throws(DatabaseError) {
        self.path = path
        var handle: OpaquePointer?
        let flags = (readOnly ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE) | SQLITE_OPEN_NOMUTEX
        let status = sqlite3_open_v2(path ?? ":memory:", &handle, flags, nil)
        guard status == SQLITE_OK, let handle else {
            let message = handle.map { String(cString: sqlite3_errmsg($0)) } ?? "out of memory"
            sqlite3_close_v2(handle)
            throw DatabaseError(.unavailable, "cannot open \(path ?? "a database in memory"): \(message)")
        }
        connection = handle
        sqlite3_extended_result_codes(handle, 1)
        sqlite3_busy_timeout(handle, Self.busyMilliseconds)
        // WAL lets readers go on while one writer commits; FULL syncs the WAL at every commit.
        if path != nil && !readOnly {
            let mode = try query("PRAGMA journal_mode=WAL", []).first?.values.first
            guard mode == .text("wal") else { throw DatabaseError(.unavailable, "\(path ?? ""): cannot use WAL mode (got \(mode ?? .null))") }
        }
        if path != nil && readOnly { try execute("PRAGMA mmap_size=\(Self.readerMapBytes)", []) }
        try execute("PRAGMA synchronous=FULL", [])
        try execute("PRAGMA foreign_keys=ON", [])
    }

    deinit { close() }

    /// Folds the WAL into the file and truncates it, then closes the connection (SQLite removes
    /// `-wal` and `-shm` as the last one closes): after a clean stop the `.sqlite3` file alone
    /// holds every commit. Calls after it say unavailable.
    package func close() {
        guard !isClosed else { return }
        if path != nil { _ = try? query("PRAGMA wal_checkpoint(TRUNCATE)", []) }
        isClosed = true
        for statement in statements.values { sqlite3_finalize(statement) }
        statements = [:]
        sqlite3_close_v2(connection)
        texts.free()
    }

    package func execute(_ sql: String, _ values: [SQLValue]) throws(DatabaseError) {
        _ = try run(sql, values[...], collecting: false)
    }

    /// `execute` with values a part of a larger array (the bulk import's rows, a statement's
    /// worth at a time), bound from where they are rather than copied into an array of their own.
    package func execute(_ sql: String, slice values: ArraySlice<SQLValue>) throws(DatabaseError) {
        _ = try run(sql, values, collecting: false)
    }

    package func query(_ sql: String, _ values: [SQLValue]) throws(DatabaseError) -> [Row] {
        try run(sql, values[...], collecting: true)
    }

    package func transaction<T>(_ body: () throws(DatabaseError) -> T) throws(DatabaseError) -> T {
        guard !inTransaction else { throw DatabaseError(.invalidStatement, "a transaction inside a transaction") }
        try execute("BEGIN IMMEDIATE", [])
        inTransaction = true
        defer { inTransaction = false }
        do {
            let result = try body()
            try execute("COMMIT", [])
            return result
        } catch {
            // A failed COMMIT may leave the transaction open; a rollback of none is harmless.
            if sqlite3_get_autocommit(connection) == 0 { _ = try? execute("ROLLBACK", []) }
            throw error
        }
    }

    private func run(_ sql: String, _ values: ArraySlice<SQLValue>, collecting: Bool) throws(DatabaseError) -> [Row] {
        guard !isClosed else { throw DatabaseError(.unavailable, "\(path ?? "the database in memory") is closed") }
        let statement = try prepared(sql)
        defer {
            sqlite3_reset(statement)
            sqlite3_clear_bindings(statement)
        }
        try bind(values, to: statement, sql)
        var rows: [Row] = []
        while true {
            let status = sqlite3_step(statement)
            if status == SQLITE_DONE { return rows }
            guard status == SQLITE_ROW else { throw failure(status, sql) }
            guard collecting else { continue }
            rows.append(Row((0..<sqlite3_column_count(statement)).map { column(statement, $0) }))
        }
    }

    /// Binds `values` to `statement`'s parameters. Every text is first copied, one after another,
    /// into `texts`, this connection's own buffer, and bound from there without SQLite's copy of
    /// it (`SQLITE_STATIC`): one copy into memory already held, where SQLite's own copy of each
    /// text was an allocation and a free (the bulk import binds some 30 million). The buffer
    /// stays as it is until the statement is reset and its bindings cleared (`run`'s defer, before
    /// any other call can reach `texts` again) and is freed only by `close`.
    private func bind(_ values: ArraySlice<SQLValue>, to statement: OpaquePointer, _ sql: String) throws(DatabaseError) {
        var textBytes = 0
        for case .text(let text) in values { textBytes += text.utf8.count }
        guard let buffer = texts.reserve(textBytes) else {
            throw DatabaseError(.unavailable, "out of memory: \(textBytes) bytes of text to bind in: \(sql.prefix(120))")
        }
        var used = 0
        for (index, value) in values.enumerated() {
            let position = Int32(index + 1)
            let status: Int32
            switch value {
            case .null: status = sqlite3_bind_null(statement, position)
            case .int(let number): status = sqlite3_bind_int64(statement, position, number)
            case .double(let number): status = sqlite3_bind_double(statement, position, number)
            case .text(let text):
                // Never a null pointer, even for an empty text (that would bind NULL).
                let start = buffer + used
                let count = Self.copyUTF8(of: text, to: start)
                used += count
                // No destructor (nil, SQLITE_STATIC): SQLite reads the text where it is, unchanged
                // until the statement is reset and its bindings cleared.
                status = sqlite3_bind_text(statement, position, start.assumingMemoryBound(to: CChar.self), Int32(count), nil)
            }
            guard status == SQLITE_OK else { throw failure(status, sql) }
        }
    }

    /// Copies `text`'s UTF-8 to `target` and returns its count of bytes.
    private static func copyUTF8(of text: String, to target: UnsafeMutableRawPointer) -> Int {
        var text = text
        return text.withUTF8 { bytes in
            if let base = bytes.baseAddress { target.copyMemory(from: base, byteCount: bytes.count) }
            return bytes.count
        }
    }

    private func column(_ statement: OpaquePointer, _ index: Int32) -> SQLValue {
        switch sqlite3_column_type(statement, index) {
        case SQLITE_INTEGER: return .int(sqlite3_column_int64(statement, index))
        case SQLITE_FLOAT: return .double(sqlite3_column_double(statement, index))
        case SQLITE_NULL: return .null
        default:
            guard let bytes = sqlite3_column_text(statement, index) else { return .text("") }
            let count = Int(sqlite3_column_bytes(statement, index))
            return .text(String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self))
        }
    }

    private func prepared(_ sql: String) throws(DatabaseError) -> OpaquePointer {
        if let statement = statements[sql] { return statement }
        var statement: OpaquePointer?
        let status = sqlite3_prepare_v3(connection, Self.numbered(sql), -1, UInt32(SQLITE_PREPARE_PERSISTENT), &statement, nil)
        guard status == SQLITE_OK, let statement else { throw failure(status, sql) }
        statements[sql] = statement
        return statement
    }

    /// `$1` as SQLite numbers it (`?1`): the statements are written once for both engines.
    static func numbered(_ sql: String) -> String {
        var result = ""
        var previous: Character = " "
        for character in sql {
            result.append(character == "$" && !previous.isLetter ? "?" : character)
            previous = character
        }
        return result
    }

    private func failure(_ status: Int32, _ sql: String) -> DatabaseError {
        let message = "\(String(cString: sqlite3_errmsg(connection))) (\(String(cString: sqlite3_errstr(status)))) in: \(sql.prefix(120))"
        return DatabaseError(Self.code(of: status), message)
    }

    /// What a result code means to the caller: the primary code is the low byte.
    static func code(of status: Int32) -> DatabaseError.Code {
        switch status {
        // SQLITE_CONSTRAINT_UNIQUE and _PRIMARYKEY, extended codes the C macros make.
        case SQLITE_CONSTRAINT | 8 << 8, SQLITE_CONSTRAINT | 6 << 8: return .uniqueViolation
        default: break
        }
        switch status & 0xFF {
        case SQLITE_BUSY, SQLITE_LOCKED, SQLITE_FULL, SQLITE_READONLY, SQLITE_IOERR, SQLITE_CANTOPEN, SQLITE_CORRUPT, SQLITE_NOTADB,
             SQLITE_NOMEM, SQLITE_PROTOCOL, SQLITE_PERM, SQLITE_AUTH:
            return .unavailable
        default: return .invalidStatement
        }
    }
}
