import Glibc
import SetNet

/// What the relay's load measured.
package struct RelayResult: Sendable, Equatable {
    /// Lines that reached a member of their room while measuring.
    package var linesDelivered = 0
    package var seconds = 0.0
    package var connections = 0
    /// Connections that ended while measuring.
    package var drops = 0

    package init(linesDelivered: Int = 0, seconds: Double = 0, connections: Int = 0, drops: Int = 0) {
        self.linesDelivered = linesDelivered
        self.seconds = seconds
        self.connections = connections
        self.drops = drops
    }

    var linesPerSecond: Double { Double(linesDelivered) / max(seconds, 0.001) }
}

/// Loads a `ReferenceRelay` the way `LoadGenerator` loads the server: the same rooms (two players
/// and their spectators), the same number of sockets, lines the size of the server's events, on
/// one event loop thread. Each player keeps `window` lines in flight, as an instant bot sends a
/// claim and its three picks at once, and sends the next when one has reached its rival.
package final class RelayLoad {
    private let port: UInt16
    private let rooms: Int
    private let spectators: Int
    private let window: Int
    private let line: [UInt8]
    private let loop: EventLoop
    private let readBuffer = ReadBuffer()
    /// Per room: the two players, then the spectators.
    private var members: [[LineSocket]] = []
    private var inFlight: [[Int]] = []
    private var joined = 0
    private var dirty: [LineSocket] = []
    private var measuring = false
    /// Why a connection ended before the load began: waiting for every member ends there.
    private var lost: String?
    private var result = RelayResult()

    /// `lineBytes` is the size of each line, its newline included (at least 16).
    package init(port: UInt16, rooms: Int, spectators: Int, lineBytes: Int, window: Int = 4) throws(SystemCallError) {
        Sockets.ignoreBrokenPipes()
        self.port = port
        self.rooms = rooms
        self.spectators = spectators
        self.window = window
        line = Self.line(bytes: lineBytes)
        loop = try EventLoop()
    }

    /// An NDJSON line of `bytes` bytes with its newline, padded as an event of that size would be.
    static func line(bytes: Int) -> [UInt8] {
        let head = Array(#"{"type":"event","pad":""#.utf8)
        let tail = Array("\"}\n".utf8)
        return head + [UInt8](repeating: UInt8(ascii: "x"), count: max(0, bytes - head.count - tail.count)) + tail
    }

    /// How long the relay has to place every member before the load gives up on it.
    static let placeWithinNanoseconds: UInt64 = 30_000_000_000

    /// Connects every room, waits until the relay has placed each member, measures for
    /// `seconds` (or until `stopAfterLines` were delivered), and returns what was delivered.
    package func run(seconds: Double, stopAfterLines: Int? = nil) throws(SystemCallError) -> RelayResult {
        for room in 0..<rooms {
            var sockets: [LineSocket] = []
            for seat in 0..<(2 + spectators) {
                let n = (room * (2 + spectators) + seat) / 8
                let socket = try LineSocket.connect(host: "127.0.0.1", port: port, from: "127.4.\(n / 250 % 256).\(1 + n % 250)",
                                                    readBuffer: readBuffer)
                socket.onLine = { [unowned self] _ in self.arrived(room, seat) }
                socket.onClose = { [unowned self] reason in
                    if self.measuring { self.result.drops += 1 } else if self.lost == nil { self.lost = reason }
                }
                try socket.serve(on: loop)
                socket.write(Array("\(room)\n".utf8))
                sockets.append(socket)
            }
            members.append(sockets)
            inFlight.append([0, 0])
        }
        result.connections = rooms * (2 + spectators)
        // Bounded: a relay that never answers a member (it never accepted it, or its close was
        // lost in a write that failed first) stops the load with a reason, not a wait for good.
        let placeBy = MonotonicTime.rawNanoseconds() + Self.placeWithinNanoseconds
        runUntil { self.joined == self.result.connections || self.lost != nil || MonotonicTime.rawNanoseconds() >= placeBy }
        if lost != nil || joined < result.connections {
            for socket in members.joined() { socket.close("done") }
            let reason = lost.map { "a connection ended before the load began: \($0)" }
                ?? "the relay placed \(joined) of \(result.connections) connections within \(Self.placeWithinNanoseconds / 1_000_000_000) s"
            throw SystemCallError("joining the relay", code: lost == nil ? ETIMEDOUT : ECONNRESET, reason: reason)
        }
        measuring = true
        let start = MonotonicTime.rawNanoseconds()
        let end = start + UInt64(seconds * 1e9)
        for room in 0..<rooms {
            for seat in 0..<2 { topUp(room, seat) }
        }
        runUntil { MonotonicTime.rawNanoseconds() >= end || stopAfterLines.map { self.result.linesDelivered >= $0 } == true }
        measuring = false
        result.seconds = Double(MonotonicTime.rawNanoseconds() - start) / 1e9
        for socket in members.joined() { socket.close("done") }
        return result
    }

    /// A line reached `seat` of `room`: before the load, the relay's answer to its room line;
    /// then a line, which a player's rival sent.
    private func arrived(_ room: Int, _ seat: Int) {
        guard measuring else {
            joined += 1
            return
        }
        result.linesDelivered += 1
        guard seat < 2 else { return }
        let rival = 1 - seat
        inFlight[room][rival] -= 1
        topUp(room, rival)
    }

    private func topUp(_ room: Int, _ seat: Int) {
        let socket = members[room][seat]
        while inFlight[room][seat] < window {
            if socket.pendingBytes == 0 { dirty.append(socket) }
            socket.send(line)
            inFlight[room][seat] += 1
        }
    }

    private func runUntil(_ done: @escaping () -> Bool) {
        let loop = self.loop
        loop.run(timeout: { 1 }, tick: { [unowned self] in
            for socket in self.dirty { socket.flush() }
            self.dirty.removeAll(keepingCapacity: true)
            if done() { loop.stop() }
        })
        loop.clearStop()
    }
}
