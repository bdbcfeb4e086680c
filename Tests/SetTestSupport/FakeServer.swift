import Glibc
import SetNet
import SetWire
import Testing

/// A hostile server for tests: a loopback listener whose every line is scripted by the test, for
/// driving the client and the bot through what no honest server would send.
package final class FakeServer {
    package let listener: Listener
    package var port: UInt16 { listener.port }

    package init() throws {
        listener = try Listener(host: "127.0.0.1", port: 0, maxLineBytes: 1 << 20, maxQueuedBytes: 4 << 20)
    }

    /// The next connection; a small receive buffer, when asked, makes "never reads" bite in kilobytes.
    package func accept(receiveBufferBytes: Int32? = nil, waitMs: Int32 = Int32(hangMs)) throws -> FakePeer {
        var ready = pollfd(fd: listener.fd, events: Int16(POLLIN), revents: 0)
        guard poll(&ready, 1, waitMs) == 1, let socket = try listener.accept() else { throw FakeServerError("no connection came") }
        if var size = receiveBufferBytes {
            setsockopt(socket.fd, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        }
        return FakePeer(socket: socket)
    }
}

package struct FakeServerError: Error, CustomStringConvertible {
    package var description: String
    package init(_ description: String) { self.description = description }
}

/// One accepted connection, seen from the fake server, through the same `LineSocket` as the
/// real one.
package final class FakePeer {
    package let socket: LineSocket
    private var lines: [String] = []
    /// Every byte sent to the client so far: a client that has read as many has handled them all.
    package private(set) var bytesSent = 0

    package init(socket: LineSocket) { self.socket = socket }

    package var isOpen: Bool { socket.isOpen }

    /// Writes a line, waiting while the client's buffers are full; false once the client is gone
    /// or has not read for `waitMs`.
    @discardableResult
    package func send(_ line: String, waitMs: Int32 = Int32(hangMs)) -> Bool {
        let bytes = Array((line + "\n").utf8)
        guard socket.send(bytes) else { return false }
        bytesSent += bytes.count
        while true {
            switch socket.flush() {
            case .drained: return true
            case .failed: return false
            case .blocked:
                var ready = pollfd(fd: socket.fd, events: Int16(POLLOUT), revents: 0)
                guard poll(&ready, 1, waitMs) == 1 else { return false }
            }
        }
    }

    /// The next line the client sent, waiting up to `waitMs`; nil if none came.
    package func readLine(waitMs: Int32 = Int32(hangMs)) -> String? {
        let deadline = MonotonicTime.rawMilliseconds() + Int64(waitMs)
        while lines.isEmpty {
            let left = deadline - MonotonicTime.rawMilliseconds()
            guard left > 0, fill(waitMs: Int32(left)) else { return nil }
        }
        return lines.removeFirst()
    }

    /// Bytes sent to the client that its kernel has not taken yet, queued here or in our kernel.
    package var undelivered: Int { socket.pendingBytes + KernelQueue.undelivered(socket.fd) }

    /// Every line the client has written on `clientFD` so far: once its kernel has handed all of
    /// it to ours, reading stops when ours holds nothing more (no quiet period).
    package func readEverything(sentBy clientFD: Int32) -> [String] {
        let deadline = MonotonicTime.rawMilliseconds() + hangMs
        while KernelQueue.undelivered(clientFD) > 0 || KernelQueue.unread(socket.fd) > 0 {
            guard MonotonicTime.rawMilliseconds() < deadline else {
                Issue.record("the client's lines never all arrived")
                break
            }
            _ = fill(waitMs: 20)
        }
        defer { lines = [] }
        return lines
    }

    /// Lines in order until `enough` holds for those read so far; a hang fails the test, naming `what`.
    package func readLines(until what: String, _ enough: ([String]) -> Bool) -> [String] {
        var read: [String] = []
        while !enough(read) {
            guard let line = readLine() else {
                Issue.record("the client never sent \(what); it sent \(read.count) lines")
                break
            }
            read.append(line)
        }
        return read
    }

    /// Every line until the client closes its end; nil if it does not within `waitMs`.
    package func readToEndOfStream(waitMs: Int64 = hangMs) -> [String]? {
        let deadline = MonotonicTime.rawMilliseconds() + waitMs
        while MonotonicTime.rawMilliseconds() < deadline {
            var ready = pollfd(fd: socket.fd, events: Int16(POLLIN), revents: 0)
            guard poll(&ready, 1, 50) >= 0 else { break }
            guard ready.revents != 0 else { continue }
            switch socket.read() {
            case .endOfStream, .failed:
                defer { lines = [] }
                return lines
            case .nothing: continue
            case .lines(let read): for case .complete(let bytes) in read { lines.append(String(decoding: bytes, as: UTF8.self)) }
            }
        }
        return nil
    }

    /// Waits for the next line whose type is `type`, skipping others.
    package func await(_ type: String, waitMs: Int32 = Int32(hangMs)) -> String? {
        while let line = readLine(waitMs: waitMs) {
            if line.contains("\"type\":\"\(type)\"") { return line }
        }
        return nil
    }

    /// Whether the client closed its end (read gives end of stream) within `waitMs`.
    package func closedByClient(waitMs: Int32 = Int32(hangMs)) -> Bool {
        let deadline = MonotonicTime.rawMilliseconds() + Int64(waitMs)
        while MonotonicTime.rawMilliseconds() < deadline {
            var ready = pollfd(fd: socket.fd, events: Int16(POLLIN), revents: 0)
            guard poll(&ready, 1, 50) >= 0 else { return true }
            guard ready.revents != 0 else { continue }
            switch socket.read() {
            case .endOfStream, .failed: return true
            case .nothing, .lines: continue
            }
        }
        return false
    }

    package func close() { socket.close() }

    private func fill(waitMs: Int32) -> Bool {
        var ready = pollfd(fd: socket.fd, events: Int16(POLLIN), revents: 0)
        guard poll(&ready, 1, waitMs) == 1, case .lines(let read) = socket.read() else { return false }
        for case .complete(let bytes) in read { lines.append(String(decoding: bytes, as: UTF8.self)) }
        return true
    }
}

/// Lines an honest server would send, to build hostile scripts from.
package enum FakeLines {
    package static let rules = #"{"claimTimeoutPenalty":10,"claimWindowMs":5000,"dealGraceMs":8000,"dealPenalty":15,"hintCost":15,"hintsInDuel":false,"secondChanceMs":10000,"setPointsLostPerSecond":1,"setPointsMax":30,"setPointsMin":10,"wrongSetPenalty":10}"#

    package static func welcome(time: String = "1000") -> String {
        #"{"limits":{},"protocol":1,"server":"fake","time":\#(time),"type":"welcome","versions":[1]}"#
    }

    package static func joined(seat: Int = 0, match: String = "m", resumed: Bool = false) -> String {
        #"{"match":"\#(match)","mode":"duel","resumed":\#(resumed),"role":"player","seat":\#(seat),"token":"00112233445566778899aabbccddeeff","type":"joined"}"#
    }

    package static func snapshot(seq: Int = 5, table: String = "[9,40,16,30,47,20,0,14,75,45,77,19]", deck: Int = 69,
                         window: String = "null", forfeitAt: String? = nil, match: String = "m") -> String {
        #"{"commitment":null,"deck":\#(deck),"game":1,"match":"\#(match)","mode":"duel","players":[{"name":"ann","present":true,"score":0,"seat":0},{"name":"bob","present":true,"score":0,"seat":1}],"rematch":[],"result":null,"rules":\#(rules),"seed":null,"selection":null,"seq":\#(seq),"shown":null,"spectators":0,"state":"playing","table":\#(table),"tableChangedAt":1000,"time":1000,"type":"snapshot","window":\#(window)"# + (forfeitAt.map { #","forfeitAt":\#($0)"# } ?? "") + "}"
    }

    package static func spectators(_ count: Int, seq: Int, match: String = "m") -> String {
        #"{"count":\#(count),"kind":"spectators","match":"\#(match)","seq":\#(seq),"time":1000,"type":"event"}"#
    }

    package static func window(kind: String = "second_chance", holder: Int = 0, opened: String, deadline: String) -> String {
        #"{"deadline":\#(deadline),"durationMs":0,"holder":\#(holder),"kind":"\#(kind)","opened":\#(opened)}"#
    }

    package static func error(_ code: String, _ message: String, fatal: Bool = false) -> String {
        #"{"code":"\#(code)","fatal":\#(fatal),"message":"\#(message)","type":"error"}"#
    }

    /// A node's redirect to the node holding `match` (Protocol.md, "Several servers (nodes)").
    package static func redirect(match: String = "m", to port: UInt16, host: String = "127.0.0.1", ticket: String? = nil) -> String {
        #"{"address":"\#(host):\#(port)","match":"\#(match)""# + (ticket.map { #","ticket":"\#($0)""# } ?? "") + #","type":"redirect"}"#
    }

    /// The node holding `match` is away for `retryAfterMs`.
    package static func nodeAway(match: String = "m", node: String = "b", retryAfterMs: Int) -> String {
        let seconds = max(1, retryAfterMs / 1_000)
        return #"{"code":"node_away","fatal":false,"match":"\#(match)","message":"The server holding \#(match) (\#(node)) is away; try again in \#(seconds) s.","node":"\#(node)","retryAfterMs":\#(retryAfterMs),"type":"error"}"#
    }

    package static func table(count: Int) -> String { "[" + (0..<count).map { String($0 % 81) }.joined(separator: ",") + "]" }
}
