import CPostgres
import Glibc

/// The bounds on every wait for PostgreSQL (issue 42 item 12). A stopped server (SIGSTOP, a hung
/// host) still has its kernel accept and acknowledge bytes, so neither TCP nor the server's own
/// `statement_timeout` ends a wait for it: each call here has its own deadline, kept by polling
/// the connection's socket, and a call past it drops the connection (the server rolls back what
/// it began) and answers `unavailable`.
package struct PostgresDeadlines: Sendable, Equatable {
    /// libpq's `connect_timeout`, in seconds (libpq takes nothing under 2).
    package var connectSeconds = 3
    /// How long one statement may take to answer, in milliseconds; also the server's
    /// `statement_timeout` and the socket's `tcp_user_timeout`.
    package var callMs = 4_000
    /// The server's `lock_timeout`: a statement waiting this long for a row another holds fails.
    package var lockMs = 2_000
    /// After a call or a connection attempt ran out of time, calls fail at once for this long
    /// rather than each waiting its whole deadline on a server that does not answer.
    package var quietMs = 1_000

    package init() {}

    /// The standard bounds: a request that needs the store is answered within 10 s however the
    /// store fails (Protocol.md "Limits").
    package static let standard = PostgresDeadlines()

    /// The connection keywords that bound libpq's own waits, given before the address so that
    /// one the operator wrote into the address wins.
    var keywords: [(String, String)] {
        [("connect_timeout", String(connectSeconds)), ("keepalives", "1"), ("keepalives_idle", "5"), ("keepalives_interval", "2"),
         ("keepalives_count", "3"), ("tcp_user_timeout", String(callMs)),
         ("options", "-c statement_timeout=\(callMs) -c lock_timeout=\(lockMs)")]
    }

    /// Milliseconds on the monotonic clock.
    static func nowMs() -> Int64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Int64(time.tv_sec) * 1_000 + Int64(time.tv_nsec) / 1_000_000
    }
}

extension PostgresDatabase {
    /// Connects with the deadlines' keywords and `url` (expanded by libpq, its own keywords last).
    static func connect(_ url: String, _ deadlines: PostgresDeadlines) -> OpaquePointer? {
        let pairs = deadlines.keywords + [("dbname", url)]
        let keys = pairs.map { strdup($0.0) }, values = pairs.map { strdup($0.1) }
        defer { (keys + values).forEach { free($0) } }
        let keyPointers = keys.map { UnsafePointer<CChar>($0) } + [nil], valuePointers = values.map { UnsafePointer<CChar>($0) } + [nil]
        return keyPointers.withUnsafeBufferPointer { keyBuffer in
            valuePointers.withUnsafeBufferPointer { valueBuffer in PQconnectdbParams(keyBuffer.baseAddress, valueBuffer.baseAddress, 1) }
        }
    }

    /// Waits for the answer to what was just sent on `connection`, until `deadlineMs` (monotonic):
    /// the first result (the caller clears it), or a COPY's start, nil when the connection failed;
    /// `.timedOut` when the deadline passed first.
    static func awaitResult(on connection: OpaquePointer, until deadlineMs: Int64) -> AwaitedResult {
        var first: OpaquePointer?
        while true {
            while PQisBusy(connection) != 0 {
                let left = deadlineMs - PostgresDeadlines.nowMs()
                guard left > 0 else {
                    PQclear(first)
                    return .timedOut
                }
                var watch = pollfd(fd: PQsocket(connection), events: Int16(POLLIN), revents: 0)
                let ready = poll(&watch, 1, Int32(min(left, Int64(Int32.max))))
                if ready < 0, errno == EINTR { continue }
                guard ready >= 0, PQconsumeInput(connection) != 0 else {
                    PQclear(first)
                    return .answered(nil)
                }
            }
            guard let result = PQgetResult(connection) else { return .answered(first) }
            // A COPY's start: the results pause until its rows are sent (libpq would repeat this one).
            if PQresultStatus(result) == PGRES_COPY_IN && first == nil { return .answered(result) }
            if first == nil { first = result } else { PQclear(result) }
        }
    }
}

/// What `awaitResult` found.
enum AwaitedResult {
    case answered(OpaquePointer?)
    case timedOut
}
