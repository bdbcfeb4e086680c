import CPostgres
import Glibc

/// A PostgreSQL database through the system's libpq, for a store several servers share. A lost
/// connection (a restart, a network cut) is made again at the next call. A call that finds it
/// lost is tried once more on a new one when that cannot do anything twice: a read outside a
/// transaction, or a transaction's BEGIN (after a restart the first call on an idle connection
/// would otherwise fail every time, and every node's `health` with it). Anything else fails with
/// `.unavailable`, and the caller decides when to try again.
package final class PostgresDatabase: Database {
    package let dialect = SQLDialect.postgres
    /// `postgresql://USER@HOST:PORT/DB`, as libpq reads it.
    package let url: String
    /// The connection (nil after a deadline passed); `PostgresDatabase+Copy` writes through it too.
    var connection: OpaquePointer?
    private var inTransaction = false
    /// The connection's prepared statements by their text (`PreparedStatements`).
    private var statements = PreparedStatements()
    /// The bounds on every wait (`PostgresDeadlines`).
    package let deadlines: PostgresDeadlines
    /// Until when (monotonic ms) calls fail at once: a call or a connection ran out of time.
    private var quietUntil: Int64 = 0
    /// The deadline of the calls inside `withCallDeadline`, in place of `deadlines.callMs`.
    private var longCallMs: Int?

    /// Connects to `url`; unavailable when the server cannot be reached within `deadlines`.
    package init(url: String, deadlines: PostgresDeadlines = .standard) throws(DatabaseError) {
        guard url.hasPrefix("postgresql://") || url.hasPrefix("postgres://") else {
            throw DatabaseError(.invalidStatement, "\(url) is not a postgresql:// address")
        }
        self.url = url
        self.deadlines = deadlines
        try connect()
    }

    deinit { PQfinish(connection) }

    /// Whether the last call left a working connection (tests).
    package var isConnected: Bool { connection.map { PQstatus($0) == CONNECTION_OK } ?? false }

    private func connect() throws(DatabaseError) {
        PQfinish(connection)
        connection = nil
        // Prepared statements belong to the session: a new connection has none.
        statements = PreparedStatements()
        let now = PostgresDeadlines.nowMs()
        guard now >= quietUntil else {
            throw DatabaseError(.unavailable, "\(Self.redacted(url)) did not answer in time a moment ago; not asked again yet")
        }
        guard let made = Self.connect(url, deadlines) else { throw DatabaseError(.unavailable, "libpq could not allocate a connection") }
        guard PQstatus(made) == CONNECTION_OK else {
            let message = Self.trimmed(PQerrorMessage(made))
            PQfinish(made)
            // A refusal is quick and the server may be back at once; a wait that ran out is not.
            if PostgresDeadlines.nowMs() - now >= 1_000 { quietUntil = PostgresDeadlines.nowMs() + Int64(deadlines.quietMs) }
            throw DatabaseError(.unavailable, "cannot connect to \(Self.redacted(url)): \(message)")
        }
        // Notices ("relation already exists, skipping") are not errors: libpq would print them.
        PQsetNoticeProcessor(made, { _, _ in }, nil)
        connection = made
    }

    package func execute(_ sql: String, _ values: [SQLValue]) throws(DatabaseError) {
        _ = try run(sql, values)
    }

    package func query(_ sql: String, _ values: [SQLValue]) throws(DatabaseError) -> [Row] {
        try run(sql, values)
    }

    package func transaction<T>(_ body: () throws(DatabaseError) -> T) throws(DatabaseError) -> T {
        guard !inTransaction else { throw DatabaseError(.invalidStatement, "a transaction inside a transaction") }
        inTransaction = true
        defer { inTransaction = false }
        var attempt = 0
        while true {
            attempt += 1
            do {
                try execute("BEGIN ISOLATION LEVEL SERIALIZABLE", [])
                let result = try body()
                try execute("COMMIT", [])
                return result
            } catch {
                if isConnected { try? execute("ROLLBACK", []) }
                guard error.code == .serializationFailure else { throw error }
                guard attempt < serializationAttempts else {
                    throw DatabaseError(.unavailable, "gave up after \(attempt) tries, others kept changing the same rows: \(error.message)")
                }
            }
        }
    }

    /// Runs `body` with each call's deadline `ms` rather than `deadlines.callMs`: for the few
    /// statements that read a whole table once (an import's last steps), never for the store's
    /// questions. The server's own `statement_timeout` is the caller's to raise (`SET LOCAL`).
    package func withCallDeadline(ms: Int, _ body: () throws(DatabaseError) -> Void) throws(DatabaseError) {
        longCallMs = ms
        defer { longCallMs = nil }
        try body()
    }

    private func run(_ sql: String, _ values: [SQLValue]) throws(DatabaseError) -> [Row] {
        do {
            return try runOnce(sql, values)
        } catch {
            guard error.code == .unavailable, !isConnected, Self.isSafeToRepeat(sql, inTransaction: inTransaction) else { throw error }
            return try runOnce(sql, values)
        }
    }

    /// Whether `sql`, having found its connection lost, may run again on a new one: it changed
    /// nothing (a read outside a transaction) or the transaction it begins has not begun.
    package static func isSafeToRepeat(_ sql: String, inTransaction: Bool) -> Bool {
        sql.hasPrefix("BEGIN") || (!inTransaction && sql.hasPrefix("SELECT"))
    }

    private func runOnce(_ sql: String, _ values: [SQLValue]) throws(DatabaseError) -> [Row] {
        let connection = try liveConnection(for: sql)
        let texts: [String?] = values.map { value in
            switch value {
            case .null: nil
            case .int(let number): String(number)
            case .double(let number): String(number)
            case .text(let text): text
            }
        }
        let copies = texts.map { $0.map { strdup($0) } ?? nil }
        defer { for copy in copies { free(copy) } }
        let pointers = copies.map { UnsafePointer<CChar>($0) }
        let name = try preparedName(of: sql, count: values.count, on: connection)
        let sent = pointers.withUnsafeBufferPointer { parameters in
            if let name { PQsendQueryPrepared(connection, name, Int32(values.count), parameters.baseAddress, nil, nil, 0) }
            else { PQsendQueryParams(connection, sql, Int32(values.count), nil, parameters.baseAddress, nil, nil, 0) }
        }
        guard sent != 0 else { throw lost(sql) }
        let result = try answer(to: sql, on: connection)
        defer { PQclear(result) }
        guard let result else { throw lost(sql) }
        switch PQresultStatus(result) {
        case PGRES_COMMAND_OK: return []
        case PGRES_TUPLES_OK: return rows(of: result)
        default: throw failure(result, sql)
        }
    }

    /// The connection to run `sql` on, made again first when it was lost, but never inside a
    /// transaction (the rest of it would run outside one).
    func liveConnection(for sql: String) throws(DatabaseError) -> OpaquePointer {
        if !isConnected {
            guard !inTransaction || sql.hasPrefix("BEGIN") else { throw DatabaseError(.unavailable, "the connection was lost") }
            try connect()
        }
        guard let connection else { throw DatabaseError(.unavailable, "no connection") }
        return connection
    }

    /// The name `sql` is prepared under on this connection, preparing it the first time (a parse
    /// and plan less per call: most of PostgreSQL's own time for the store's small statements);
    /// nil for a statement that is not kept (`PreparedStatements.keeps`).
    private func preparedName(of sql: String, count: Int, on connection: OpaquePointer) throws(DatabaseError) -> String? {
        if let name = statements.names[sql] { return name }
        guard let name = statements.nameForNew(sql) else { return nil }
        guard PQsendPrepare(connection, name, sql, Int32(count), nil) != 0, let result = try answer(to: sql, on: connection) else { throw lost(sql) }
        defer { PQclear(result) }
        guard PQresultStatus(result) == PGRES_COMMAND_OK else { throw failure(result, sql) }
        statements.names[sql] = name
        return name
    }

    /// The answer to what was just sent, within the call's deadline; past it the connection is
    /// dropped (the server rolls back what it began) and calls fail at once for a moment.
    func answer(to sql: String, on connection: OpaquePointer) throws(DatabaseError) -> OpaquePointer? {
        let callMs = longCallMs ?? deadlines.callMs
        switch Self.awaitResult(on: connection, until: PostgresDeadlines.nowMs() + Int64(callMs)) {
        case .answered(let result): return result
        case .timedOut:
            PQfinish(connection)
            self.connection = nil
            quietUntil = PostgresDeadlines.nowMs() + Int64(deadlines.quietMs)
            throw DatabaseError(.unavailable, "no answer within \(callMs) ms; the connection is made again at the next call, in: " + String(sql.prefix(120)))
        }
    }

    private func rows(of result: OpaquePointer) -> [Row] {
        let columns = PQnfields(result)
        let types = (0..<columns).map { PQftype(result, $0) }
        return (0..<PQntuples(result)).map { row in
            Row((0..<columns).map { column in
                guard PQgetisnull(result, row, column) == 0, let text = PQgetvalue(result, row, column) else { return .null }
                return Self.value(String(cString: text), type: types[Int(column)])
            })
        }
    }

    /// A column's text as the value its type holds (type numbers from `pg_type`).
    static func value(_ text: String, type: Oid) -> SQLValue {
        switch type {
        case 20, 21, 23: Int64(text).map(SQLValue.int) ?? .text(text)
        case 700, 701: Double(text).map(SQLValue.double) ?? .text(text)
        case 16: .int(text == "t" ? 1 : 0)
        // A sum or an average of integers comes back numeric.
        case 1700: Int64(text).map(SQLValue.int) ?? Double(text).map(SQLValue.double) ?? .text(text)
        default: .text(text)
        }
    }

    func failure(_ result: OpaquePointer, _ sql: String) -> DatabaseError {
        let state = PQresultErrorField(result, Int32(UInt8(ascii: "C"))).map { String(cString: $0) } ?? ""
        let message = Self.trimmed(PQresultErrorMessage(result)) + " in: " + String(sql.prefix(120))
        if !isConnected { return DatabaseError(.unavailable, message) }
        return DatabaseError(Self.code(of: state), message)
    }

    func lost(_ sql: String) -> DatabaseError {
        DatabaseError(.unavailable, (connection.map { Self.trimmed(PQerrorMessage($0)) } ?? "no connection") + " in: " + String(sql.prefix(120)))
    }

    /// What an SQLSTATE means to the caller.
    static func code(of state: String) -> DatabaseError.Code {
        switch state {
        case "23505": .uniqueViolation
        case "40001", "40P01": .serializationFailure
        case _ where state.hasPrefix("08") || state.hasPrefix("53") || state.hasPrefix("57") || state.hasPrefix("58"): .unavailable
        case "25006": .unavailable
        default: .invalidStatement
        }
    }

    /// libpq's message on one line: it spans several ("server closed the connection
    /// unexpectedly\n\tThis probably means…"), and a server log keeps one event per line.
    private static func trimmed(_ text: UnsafePointer<CChar>?) -> String {
        guard let text else { return "" }
        return String(cString: text).split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }

    /// The address without a password, for logs.
    package static func redacted(_ url: String) -> String {
        let parts = url.split(separator: "@", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count == 2, let scheme = parts[0].firstIndex(of: "/"), let colon = parts[0][scheme...].firstIndex(of: ":") else { return url }
        return parts[0][..<colon] + ":***@" + parts[1]
    }
}
