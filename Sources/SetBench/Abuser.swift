import Foundation
import Glibc
import SetNet
import Synchronization

/// What an abusive client does to a server while `setgame bench --abuse` measures a duel on it.
package enum AbuseKind: String, CaseIterable, Sendable {
    /// Fills the server with matches, then four clients page through `list` as fast as allowed.
    case list
    /// Connect, join a new match, hang up: up to 4,096 times a second, from 16 addresses.
    case lobby
    /// 2,000 spectators join the measured duel and stay; another client joins and leaves as a
    /// spectator as fast as it can.
    case spectators
    /// 1,100 idle sockets, topped up as the server closes them, against a 1,024-descriptor server.
    case fds
    /// 200 spectators of the measured duels, each from an address of its own, each chatting at
    /// its limit (a line every 2.1 s: five in any ten seconds), every line new.
    case chat
}

/// What the abuse did, as its client saw it.
package struct AbuseStats: Sendable {
    package var attempts = 0
    package var bytesReceived = 0
    package var openSockets = 0
    package var outcomes: [String: Int] = [:]
    package var seconds = 0.0
}

/// Runs one abuse on its own thread, with blocking sockets from loopback addresses other than
/// 127.0.0.1 (any 127.x.y.z reaches the server), so per-address limits see it as strangers.
/// Its sockets and stats live in an `AbuseRun` that the abuse thread holds for the whole abuse;
/// another thread only sets the atomic stop flag and takes the stats once the thread let go.
package final class Abuser: Sendable {
    private let run: Mutex<AbuseRun>
    private let stopping: AbuseRun.StopFlag
    private let done = DispatchSemaphore(value: 0)
    /// Signalled by the abuse thread once its setup is done and the abuse proper runs.
    private let ready: DispatchSemaphore

    package init(kind: AbuseKind, port: UInt16, targets: [String], lane: Int = 0, lanes: Int = 1) {
        let stopping = AbuseRun.StopFlag(), ready = DispatchSemaphore(value: 0)
        self.stopping = stopping
        self.ready = ready
        run = Mutex(AbuseRun(kind: kind, port: port, targets: targets, lane: lane, lanes: lanes, stopping: stopping, ready: ready))
    }

    /// How many abusers on their own threads a kind needs: a blocking client waits a round trip
    /// per connection, so 4,096 a second takes several.
    package static func lanes(for kind: AbuseKind) -> Int { kind == .lobby ? 4 : 1 }

    /// The stats of several lanes as one.
    package static func combined(_ all: [AbuseStats]) -> AbuseStats {
        var total = AbuseStats()
        for stats in all {
            total.attempts += stats.attempts
            total.bytesReceived += stats.bytesReceived
            total.openSockets += stats.openSockets
            total.seconds = max(total.seconds, stats.seconds)
            total.outcomes.merge(stats.outcomes, uniquingKeysWith: +)
        }
        return total
    }

    /// Starts the abuse and returns once its setup (such as filling the server) is done.
    package func start() {
        Thread.detachNewThread { [self] in
            run.withLock { $0.abuse() }
            done.signal()
        }
        ready.wait()
    }

    /// Ends the abuse, closes its sockets, and reports.
    package func stop() -> AbuseStats {
        stopping.flag.store(true, ordering: .releasing)
        done.wait()
        return run.withLock { $0.stats }
    }
}

/// One abuse's sockets and stats, touched only by the thread that holds it.
final class AbuseRun {
    /// Set by another thread to end the abuse.
    final class StopFlag: Sendable {
        let flag = Atomic<Bool>(false)
    }

    let kind: AbuseKind
    let port: UInt16
    /// The measured duels, for the spectators to watch.
    let targets: [String]
    private let stopping: StopFlag
    private(set) var stats = AbuseStats()
    private var held: [LineSocket] = []
    /// The list abuse's clients; kept apart from `held`, whose input is thrown away.
    private var listers: [LineSocket] = []
    /// Every socket is read on the abuse thread, into this one buffer.
    private let readBuffer = ReadBuffer()
    private let ready: DispatchSemaphore

    /// This abuser's share of a lobby flood run by `lanes` abusers at once, each on its own thread.
    let lane: Int
    let lanes: Int

    init(kind: AbuseKind, port: UInt16, targets: [String], lane: Int, lanes: Int, stopping: StopFlag, ready: DispatchSemaphore) {
        self.kind = kind
        self.port = port
        self.targets = targets
        self.lane = lane
        self.lanes = max(1, lanes)
        self.stopping = stopping
        self.ready = ready
    }

    /// The whole abuse, until stopped; signals `ready` once its setup is done.
    func abuse() {
        let began = MonotonicTime.rawNanoseconds()
        switch kind {
        case .lobby: lobby()
        case .list: list()
        case .spectators: spectators()
        case .fds: descriptors()
        case .chat: chat()
        }
        stats.seconds = Double(MonotonicTime.rawNanoseconds() - began) / 1e9
        stats.openSockets = held.count
        held.forEach { $0.close() }
        listers.forEach { $0.close() }
    }

    private var running: Bool { !stopping.flag.load(ordering: .acquiring) }

    // MARK: The abuses

    private func lobby() {
        ready.signal()
        let interval = 1e9 / 4_096 * Double(lanes)
        let start = MonotonicTime.rawNanoseconds()
        while running {
            let due = start + UInt64(Double(stats.attempts) * interval)
            let now = MonotonicTime.rawNanoseconds()
            if now < due { usleep(UInt32(min(1_000, (due - now) / 1_000))); continue }
            let n = stats.attempts * lanes + lane
            stats.attempts += 1
            let join = switch n % 3 {
            case 0: #"{"type":"join","name":"x","match":"lock-\#(n)"}"#
            case 1: #"{"type":"join","name":"x"}"#
            default: #"{"type":"join","name":"x","mode":"solo","match":"lone-\#(n)"}"#
            }
            guard let socket = connect(from: "127.0.1.\(1 + n % 16)") else { continue }
            send(socket, join)
            record(awaitReply(socket))
            socket.close()
        }
    }

    private func list() {
        // Almost every match slot taken by a duel waiting for its second player, each held open
        // from addresses of its own (an address may keep 8 waiting). Nobody moves in them, so they
        // have no journal: the figures are about listing, not about the disk.
        for n in 0..<3_900 where running {
            guard let socket = connect(from: "127.1.\(n / 8 / 250).\(1 + (n / 8) % 250)") else { continue }
            send(socket, #"{"type":"join","name":"x","match":"many-\#(n)"}"#)
            record(awaitReply(socket))
            held.append(socket)
            if n % 200 == 0 { drainHeld() }
        }
        listers = (0..<4).compactMap { connect(from: "127.0.3.\(1 + $0)") }
        var cursors = [String?](repeating: nil, count: listers.count)
        ready.signal()
        let interval = 1e9 / 10  // each at ten lists a second: the most the rate limit lets through
        let start = MonotonicTime.rawNanoseconds()
        while running {
            let due = start + UInt64(Double(stats.attempts / max(1, listers.count)) * interval)
            let now = MonotonicTime.rawNanoseconds()
            if now < due { usleep(UInt32(min(10_000, (due - now) / 1_000))); continue }
            for (index, socket) in listers.enumerated() {
                stats.attempts += 1
                let after = cursors[index].map { #","after":"\#($0)""# } ?? ""
                send(socket, #"{"type":"list","limit":50\#(after)}"#)
                guard let line = awaitLine(socket, containing: "\"type\":\"matches\"") else { continue }
                record(line)
                cursors[index] = field("next", in: line)
            }
            drainHeld()
        }
    }

    private func spectators() {
        for n in 0..<2_000 where running {
            guard let socket = connect(from: "127.0.4.\(1 + n / 40)") else { continue }
            send(socket, #"{"type":"join","role":"spectator","name":"s\#(n)","match":"\#(targets[n % targets.count])"}"#)
            record(awaitReply(socket))
            held.append(socket)
            if n % 100 == 0 { drainHeld() }
        }
        ready.signal()
        var n = 0
        while running {
            n += 1
            stats.attempts += 1
            if let socket = connect(from: "127.0.5.\(1 + n % 16)") {
                send(socket, #"{"type":"join","role":"spectator","name":"c","match":"\#(targets[n % targets.count])"}"#)
                record(awaitReply(socket))
                socket.close()
            }
            if n % 20 == 0 { drainHeld() }
        }
    }

    private func descriptors() {
        ready.signal()
        var n = 0
        while running {
            // Top up to 1,100 idle sockets as the server refuses or closes them, 1,000 a second at most.
            var opened = 0
            while held.count < 1_100 && running && (stats.attempts < 1_100 || opened < 10) {
                opened += 1
                n += 1
                stats.attempts += 1
                guard let socket = connect(from: "127.0.6.\(1 + n % 37)") else { break }
                held.append(socket)
            }
            drainHeld()
            usleep(10_000)
        }
    }

    /// Spectators from addresses of their own, each saying a new line as often as its limit allows.
    private func chat() {
        let talkers = 200
        for n in 0..<talkers where running {
            guard let socket = connect(from: "127.0.7.\(1 + n)") else { continue }
            send(socket, #"{"type":"join","role":"spectator","name":"c\#(n)","match":"\#(targets[n % targets.count])"}"#)
            record(awaitReply(socket))
            held.append(socket)
            if n % 50 == 0 { drainHeld() }
        }
        ready.signal()
        // 2.1 s apart per talker, spread evenly over them: just under five lines in ten seconds.
        let interval = 2.1e9 / Double(max(1, held.count))
        let start = MonotonicTime.rawNanoseconds()
        while running, !held.isEmpty {
            let due = start + UInt64(Double(stats.attempts) * interval)
            let now = MonotonicTime.rawNanoseconds()
            if now < due {
                drainHeld()
                usleep(UInt32(min(2_000, (due - now) / 1_000)))
                continue
            }
            let socket = held[stats.attempts % held.count]
            send(socket, #"{"type":"chat","text":"line \#(stats.attempts) of a chatty crowd"}"#)
            stats.attempts += 1
        }
    }

    // MARK: Sockets

    /// A blocking socket from `source` to the server; its reads give up after 2 s.
    private func connect(from source: String) -> LineSocket? {
        do {
            let fd = try Sockets.connect(host: "127.0.0.1", port: port, from: source)
            Sockets.setReceiveTimeout(fd, milliseconds: 2_000)
            return LineSocket(adopting: fd, readBuffer: readBuffer)
        } catch {
            stats.outcomes[error.call == "socket" ? "socket failed" : "connect failed", default: 0] += 1
            return nil
        }
    }

    private func send(_ socket: LineSocket, _ line: String) {
        socket.send(Array((line + "\n").utf8))
        socket.flush()
    }

    /// Reads until a line holding `marker` arrives (returned), or the peer closes or times out.
    private func awaitLine(_ socket: LineSocket, containing marker: String) -> String? {
        awaitLine(socket) { $0.contains(marker) }
    }

    /// The answer to a join: `joined` or an error.
    private func awaitReply(_ socket: LineSocket) -> String? {
        awaitLine(socket) { $0.contains("\"type\":\"joined\"") || $0.contains("\"type\":\"error\"") }
    }

    /// Reads until a line for which `wanted` holds arrives (returned), or the peer closes or times out.
    private func awaitLine(_ socket: LineSocket, where wanted: (String) -> Bool) -> String? {
        while case .lines(let lines) = read(socket) {
            for case .complete(let bytes) in lines {
                let line = String(decoding: bytes, as: UTF8.self)
                if wanted(line) { return line }
            }
        }
        return nil
    }

    /// One read, its bytes counted.
    private func read(_ socket: LineSocket) -> LineSocket.ReadResult {
        let before = socket.bytesRead
        defer { stats.bytesReceived += socket.bytesRead - before }
        return socket.read()
    }

    /// Counts a reply by its type, or its error code.
    private func record(_ line: String?) {
        guard let line else { return stats.outcomes["no answer", default: 0] += 1 }
        let key = field("code", in: line) ?? field("type", in: line) ?? "?"
        stats.outcomes[key, default: 0] += 1
    }

    private func field(_ name: String, in line: String) -> String? {
        guard let range = line.range(of: "\"\(name)\":\"") else { return nil }
        return String(line[range.upperBound...].prefix { $0 != "\"" })
    }

    /// Reads and throws away whatever the held sockets were sent; drops those the server closed.
    private func drainHeld() {
        var polled = held.map { pollfd(fd: $0.fd, events: Int16(POLLIN), revents: 0) }
        guard poll(&polled, nfds_t(polled.count), 0) > 0 else { return }
        var closed = 0
        for (socket, entry) in zip(held, polled) where entry.revents != 0 {
            switch read(socket) {
            case .lines(let lines) where kind == .chat:
                // What the crowd was told: each chat line heard, and any refusal by its code.
                for case .complete(let bytes) in lines {
                    let line = String(decoding: bytes, as: UTF8.self)
                    if line.contains("\"type\":\"error\"") { record(line) } else if line.contains("\"type\":\"chat\"") { stats.outcomes["chat heard", default: 0] += 1 }
                }
            case .lines, .nothing: continue
            case .endOfStream, .failed:
                socket.close()
                closed += 1
            }
        }
        guard closed > 0 else { return }
        stats.outcomes["closed by the server", default: 0] += closed
        held.removeAll { !$0.isOpen }
    }
}
