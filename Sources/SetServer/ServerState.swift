import Glibc
import SetNet
import SetRules
import SetWire
import Synchronization

/// What the server keeps in its data folder besides journals, so a restart goes on where the last
/// run stopped: a lease on its clock, and where `--seed` counting had got to. It is one record of
/// fixed length rewritten in place with one `pwrite`: a kill leaves the old or the new record, and
/// a full disk cannot refuse it, since it never needs a new block.
final class ServerState: Sendable {
    struct Values: Equatable {
        /// No time handed out was at or beyond it: a restarted clock starts here.
        var clockLease: Int64 = 0
        /// The `--seed` the counting started from, and the next seed it gives out.
        var seedStart: UInt64?
        var seedNext: UInt64?
    }

    /// How far ahead of the clock the lease runs: a restart may skip up to this much time.
    static let leaseMs: Int64 = 1_000

    let path: String
    private let fd: Int32
    static let recordLength = 160
    private let values: Mutex<Values>
    /// Whether the last write failed (reported once, as for journals).
    private let writeFailed = Mutex(false)
    private let log: ServerLog

    /// Reads the state a previous run left (nothing, for a new folder).
    init(folder: String, log: ServerLog) {
        path = folder + "/server-state.json"
        self.log = log
        values = Mutex(Self.read(path) ?? Values())
        fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        save(current)
    }

    deinit { if fd >= 0 { Glibc.close(fd) } }

    var current: Values { values.withLock { $0 } }

    /// Makes sure no instant up to `instant` can be handed out again after a restart.
    func cover(_ instant: Instant) {
        let snapshot: Values? = values.withLock { state in
            guard instant.milliseconds >= state.clockLease else { return nil }
            state.clockLease = instant.milliseconds + Self.leaseMs
            return state
        }
        if let snapshot { save(snapshot) }
    }

    /// The next seed of `--seed start` counting, persisted before it is used: a restarted server
    /// started with the same `start` goes on counting after it.
    func nextSeed(countingFrom start: UInt64) -> UInt64 {
        let (seed, snapshot) = values.withLock { state -> (UInt64, Values) in
            let seed = state.seedStart == start ? state.seedNext ?? start : start
            state.seedStart = start
            state.seedNext = seed &+ 1
            return (seed, state)
        }
        save(snapshot)
        return seed
    }

    private func save(_ state: Values) {
        var members: [String: JSONValue] = ["clockLease": .int(state.clockLease)]
        if let start = state.seedStart, let next = state.seedNext {
            members["seedStart"] = .string(String(start))
            members["seedNext"] = .string(String(next))
        }
        var bytes = JSONWriter.bytes(.object(members))
        bytes += [UInt8](repeating: 0x20, count: max(0, Self.recordLength - 1 - bytes.count))
        bytes.append(0x0A)
        let ok = fd >= 0 && bytes.withUnsafeBytes { pwrite(fd, $0.baseAddress, $0.count, 0) } == bytes.count
        let reason = ok ? "" : "\(SocketError("write"))"
        let report = writeFailed.withLock { failed -> Bool in
            defer { failed = !ok }
            return failed == ok  // report a change of state only
        }
        if report { log(ok ? "\(path) is written again" : "cannot write \(path) (\(reason)): times after a restart may repeat") }
    }

    private static func read(_ path: String) -> Values? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { Glibc.close(fd) }
        var buffer = [UInt8](repeating: 0, count: 4_096)
        let count = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
        guard count > 0, let document = try? JSONParser.parse(Array(buffer[0..<count])),
              let lease = document["clockLease"]?.intValue else { return nil }
        return Values(clockLease: lease, seedStart: document["seedStart"]?.stringValue.flatMap { UInt64($0) },
                      seedNext: document["seedNext"]?.stringValue.flatMap { UInt64($0) })
    }
}

/// A clock that leases its future from the server state: whatever it hands out, a restarted
/// server's clock starts later, so times never run backwards across a restart.
struct LeasedTime: TimeSource {
    let base: any TimeSource
    let state: ServerState

    func now() -> Instant {
        let instant = base.now()
        state.cover(instant)
        return instant
    }
}
