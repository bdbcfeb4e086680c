import Dispatch
import Foundation
import Glibc
import SetNet
import SetRules
import Synchronization

/// A TCP relay on loopback that delays each direction by a fixed amount, plus an optional jitter
/// drawn per chunk (uniform in ±`jitterMs`), keeping the byte order as TCP would: a chunk never
/// overtakes the one before it. It stands a client "far away" from a server on the same machine.
package final class DelayRelay: Sendable {
    /// The port clients connect to.
    package let port: UInt16
    private let listener: Int32
    private let target: UInt16
    private let delayMs: Int
    private let jitterMs: Int
    private let seed: UInt64
    private let stopped = Atomic<Bool>(false)
    private let relaying = Atomic<Int>(0)

    /// Listens on a free loopback port and relays every connection to `127.0.0.1:target`.
    package init(to target: UInt16, delayMs: Int, jitterMs: Int = 0, seed: UInt64 = 1) throws(SystemCallError) {
        listener = try Sockets.listen(host: "127.0.0.1", port: 0)
        port = Sockets.localPort(listener)
        self.target = target
        self.delayMs = delayMs
        self.jitterMs = jitterMs
        self.seed = seed
        Thread.detachNewThread { [self] in acceptLoop() }
    }

    /// Connections relayed now: each ends, both its sockets closed, once both directions did.
    package var openConnections: Int { relaying.load(ordering: .acquiring) }

    /// Stops accepting; relayed connections end when either side closes.
    package func stop() {
        stopped.store(true, ordering: .relaxed)
    }

    private func acceptLoop() {
        var count: UInt64 = 0
        while !stopped.load(ordering: .relaxed) {
            var waiting = pollfd(fd: listener, events: Int16(POLLIN), revents: 0)
            guard poll(&waiting, 1, 100) > 0, let client = try? Sockets.accept(listener) else { continue }
            guard let server = try? Sockets.connect(host: "127.0.0.1", port: target) else {
                Glibc.close(client)
                continue
            }
            Sockets.setNoDelay(server)
            Self.setBlocking(client)
            count += 1
            relaying.add(1, ordering: .acquiringAndReleasing)
            let pair = SocketPair(client, server) { [self] in relaying.subtract(1, ordering: .acquiringAndReleasing) }
            pipe(from: client, to: server, seed: seed &+ count &* 2, pair: pair)
            pipe(from: server, to: client, seed: seed &+ count &* 2 &+ 1, pair: pair)
        }
        Glibc.close(listener)
    }

    private static func setBlocking(_ fd: Int32) {
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK)
    }

    /// One direction: a reader stamps each chunk with when it may go on, a writer sends it then.
    private func pipe(from source: Int32, to destination: Int32, seed: UInt64, pair: SocketPair) {
        let queue = ChunkQueue()
        let delay = Int64(delayMs) * 1_000_000, jitter = Int64(jitterMs)
        Thread.detachNewThread {
            var random = SplitMix64(seed: seed)
            var buffer = [UInt8](repeating: 0, count: 64 * 1024)
            var lastDue: Int64 = 0
            while true {
                let count = buffer.withUnsafeMutableBytes { Glibc.read(source, $0.baseAddress, $0.count) }
                guard count > 0 else { break }
                let wobble = jitter > 0 ? (Int64(random.next() % UInt64(2 * jitter + 1)) - jitter) * 1_000_000 : 0
                lastDue = max(lastDue, Self.nowNs() + delay + wobble)
                queue.put(Array(buffer[0..<count]), due: lastDue)
            }
            queue.put(nil, due: lastDue)
        }
        Thread.detachNewThread {
            while let (chunk, due) = queue.take() {
                let wait = due - Self.nowNs()
                if wait > 0 { usleep(UInt32(wait / 1_000)) }
                var sent = 0
                while sent < chunk.count {
                    let written = chunk[sent...].withUnsafeBytes { Glibc.write(destination, $0.baseAddress, $0.count) }
                    guard written > 0 else { break }
                    sent += written
                }
                if sent < chunk.count { break }
            }
            shutdown(destination, Int32(SHUT_WR))
            shutdown(source, Int32(SHUT_RD))
            pair.directionEnded()
        }
    }

    static func nowNs() -> Int64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Int64(time.tv_sec) * 1_000_000_000 + Int64(time.tv_nsec)
    }
}

/// A relayed connection's two sockets, closed when the second of its directions ends (the
/// first only half-closes them, as TCP lets a peer keep talking after it stopped listening).
private final class SocketPair: Sendable {
    private let first: Int32, second: Int32
    private let directions = Atomic<Int>(2)
    private let closed: @Sendable () -> Void

    init(_ first: Int32, _ second: Int32, closed: @escaping @Sendable () -> Void) {
        (self.first, self.second, self.closed) = (first, second, closed)
    }

    func directionEnded() {
        guard directions.subtract(1, ordering: .acquiringAndReleasing).newValue == 0 else { return }
        Glibc.close(first)
        Glibc.close(second)
        closed()
    }
}

/// Chunks in order with the instant each may be written; nil ends the stream.
private final class ChunkQueue: Sendable {
    private let chunks = Mutex<[(bytes: [UInt8]?, due: Int64)]>([])
    private let ready = DispatchSemaphore(value: 0)

    func put(_ bytes: [UInt8]?, due: Int64) {
        chunks.withLock { $0.append((bytes, due)) }
        ready.signal()
    }

    /// The next chunk, waiting for one; nil at the end of the stream.
    func take() -> ([UInt8], Int64)? {
        ready.wait()
        let next = chunks.withLock { $0.removeFirst() }
        guard let bytes = next.bytes else { return nil }
        return (bytes, next.due)
    }
}
