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

    /// How far ahead of the clock the lease runs: a restart may skip up to this much time. It is
    /// renewed once half of it is used, so while the loop reads the clock at least every
    /// `renewEveryMs` the lease stays ahead of the clock, and a crash happens before it runs out.
    static let leaseMs: Int64 = 1_000
    static let renewEveryMs: Int64 = leaseMs / 2

    let path: String
    private let fd: Int32
    static let recordLength = 160
    private let values: Mutex<Values>
    /// Whether the last write failed (reported once, as for journals).
    private let writeFailed = Mutex(false)
    private let log: ServerLog

    /// Reads the state a previous run left (nothing, for a new folder). A file that is not a
    /// record this server could have written is set aside in `damaged/` with a log line, and
    /// the server starts as on a new folder: its clock above the journals' times.
    init(in directory: JournalDirectory) {
        path = directory.path + "/server-state.json"
        log = directory.log
        var restored = Values()
        switch Self.read(path) {
        case .success(let values):
            restored = values ?? Values()
            if values == nil, let note = Self.emptyNote(path) { log(note) }
        case .failure(let problem):
            directory.setAside(path, saying: "\(path) \(problem.reason); the clock starts above the journals' times and --seed counting from its start")
        }
        values = Mutex(restored)
        // Never through a link: whoever made one would have this server overwrite its target.
        fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o600)
        save(current)
    }

    /// What is wrong with the state file in `folder`, or nil if it is sound or missing; for
    /// `serve --check`, which changes nothing.
    static func problem(inFolder folder: String) -> String? {
        if case .failure(let problem) = read(folder + "/server-state.json") { return problem.reason }
        return nil
    }

    /// What to say of a state file that is there but empty: harmless (the server stopped before
    /// its first write), but the lease it should hold is gone, so an operator should know.
    static func emptyNote(_ path: String) -> String? {
        var info = stat()
        guard lstat(path, &info) == 0, info.st_size == 0 else { return nil }
        return "\(path) is empty (the server stopped before it first wrote it): the clock starts above the journals' times"
    }

    deinit { if fd >= 0 { Glibc.close(fd) } }

    var current: Values { values.withLock { $0 } }

    /// Makes sure no instant up to `instant` can be handed out again after a restart.
    func cover(_ instant: Instant) {
        let snapshot: Values? = values.withLock { state in
            guard instant.milliseconds + Self.renewEveryMs >= state.clockLease else { return nil }
            state.clockLease = instant.milliseconds + Self.leaseMs
            return state
        }
        if let snapshot { save(snapshot) }
    }

    /// The server stops at `instant` and hands out no time after it, so the lease may come down to
    /// just above it: the restarted clock goes on from there, and the paused matches lose nothing.
    func settle(at instant: Instant) {
        let snapshot = values.withLock { state -> Values in
            state.clockLease = instant.milliseconds + 1
            return state
        }
        save(snapshot)
    }

    /// The next seed of `--seed start` counting, persisted before it is used. Counting on one
    /// folder only goes up: a restarted server goes on after the last seed dealt, and one
    /// started with another `start` begins at `start` or after the last seed dealt, whichever
    /// is higher, so the folder never deals a seed twice (issue 32 item 10).
    func nextSeed(countingFrom start: UInt64) -> UInt64 {
        let (seed, snapshot) = values.withLock { state -> (UInt64, Values) in
            let seed = max(start, state.seedNext ?? start)
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
        let ok = fd >= 0 && SystemCall.run { bytes.withUnsafeBytes { pwrite(fd, $0.baseAddress, $0.count, 0) } } == .done(bytes.count)
        let reason = ok ? "" : "\(SystemCallError("write"))"
        let report = writeFailed.withLock { failed -> Bool in
            defer { failed = !ok }
            return failed == ok  // report a change of state only
        }
        if report { log(ok ? "\(path) is written again" : "cannot write \(path) (\(reason)): times after a restart may repeat") }
    }

    /// Why a state file cannot be trusted, as a phrase after its path.
    struct Problem: Error {
        var reason: String
    }

    /// The values a previous run saved; nil when there is no file or an empty one (a crash
    /// between creating and first writing it). Every value is checked as a journal's would be:
    /// a lease out of the range a restored clock may start in would trap or poison the clock.
    static func read(_ path: String) -> Result<Values?, Problem> {
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
        guard fd >= 0 else {
            if errno == ENOENT { return .success(nil) }
            return .failure(Problem(reason: errno == ELOOP ? "is a link, which this server never makes" : "cannot be read (\(String(cString: strerror(errno))))"))
        }
        defer { Glibc.close(fd) }
        var buffer = [UInt8](repeating: 0, count: 4_096)
        var count = 0
        while count < buffer.count {
            let read = buffer.withUnsafeMutableBytes { FileCalls.readSome(into: UnsafeMutableRawBufferPointer(rebasing: $0[count...]), from: fd) }
            let got: Int
            switch read {
            case .success(let count): got = count
            case .failure(let error): return .failure(Problem(reason: "cannot be read (\(String(cString: strerror(error.code))))"))
            }
            if got == 0 { break }
            count += got
        }
        if count == 0 { return .success(nil) }
        if count == buffer.count { return .failure(Problem(reason: "is longer than any state this server writes")) }
        return parse(Array(buffer[0..<count])).map { Optional($0) }
    }

    private static func parse(_ bytes: [UInt8]) -> Result<Values, Problem> {
        func problem(_ reason: String) -> Result<Values, Problem> { .failure(Problem(reason: reason)) }
        guard let document = try? JSONParser.parse(bytes), document.objectValue != nil else { return problem("is not a JSON object") }
        guard let lease = document["clockLease"]?.intValue else { return problem("has no integer clockLease") }
        guard (0...RestoredClock.ceilingMs).contains(lease) else {
            return problem("has clockLease \(lease), outside 0...\(RestoredClock.ceilingMs) ms, where a restored clock may start")
        }
        var values = Values(clockLease: lease)
        switch (document["seedStart"], document["seedNext"]) {
        case (nil, nil): break
        case (let start?, let next?):
            guard let start = start.stringValue.flatMap({ UInt64($0) }), let next = next.stringValue.flatMap({ UInt64($0) }) else {
                return problem("has a seed that is not a decimal 64-bit number in a string")
            }
            values.seedStart = start
            values.seedNext = next
        default: return problem("has one of seedStart and seedNext without the other")
        }
        return .success(values)
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

    /// The server hands out no more time: see `ServerState.settle`.
    func settle() { state.settle(at: base.now()) }
}

