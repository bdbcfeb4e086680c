import Foundation
import Glibc
import SetNet
import Testing
@testable import SetBench

/// The fairness bench's relay: it only ever adds delay, each way, and never reorders bytes.
@Suite struct DelayRelayTests {
    /// Reads until `count` bytes came (blocking), or the peer closed.
    func read(_ fd: Int32, count: Int) -> [UInt8] {
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4_096)
        while bytes.count < count {
            let got = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            guard got > 0 else { break }
            bytes += buffer[0..<got]
        }
        return bytes
    }

    /// The relay's connection to the listener, blocking.
    func accept(_ listener: Int32) throws -> Int32 {
        while true {
            var ready = pollfd(fd: listener, events: Int16(POLLIN), revents: 0)
            _ = poll(&ready, 1, 1_000)
            if let server = try Sockets.accept(listener) {
                _ = fcntl(server, F_SETFL, fcntl(server, F_GETFL) & ~O_NONBLOCK)
                return server
            }
        }
    }

    func write(_ fd: Int32, _ bytes: [UInt8]) {
        _ = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
    }

    @Test func eachDirectionIsDelayedAtLeastItsAmountAndKeepsItsOrder() throws {
        let listener = try Sockets.listen(host: "127.0.0.1", port: 0)
        defer { Glibc.close(listener) }
        let relay = try DelayRelay(to: Sockets.localPort(listener), delayMs: 40, jitterMs: 20, seed: 3)
        defer { relay.stop() }
        let client = try Sockets.connect(host: "127.0.0.1", port: relay.port)
        defer { Glibc.close(client) }
        let server = try accept(listener)
        defer { Glibc.close(server) }
        // Many small writes, each its own chunk with its own jitter: they must arrive in order.
        let started = DelayRelay.nowNs()
        var sent: [UInt8] = []
        for index in 0..<50 {
            let chunk = Array("line \(index)\n".utf8)
            sent += chunk
            write(client, chunk)
            usleep(1_000)
        }
        #expect(read(server, count: sent.count) == sent)
        #expect((DelayRelay.nowNs() - started) / 1_000_000 >= 20, "the first byte waits at least 40 − 20 ms")
        let back = DelayRelay.nowNs()
        write(server, Array("pong\n".utf8))
        #expect(read(client, count: 5) == Array("pong\n".utf8))
        #expect((DelayRelay.nowNs() - back) / 1_000_000 >= 20)
    }

    /// A relayed connection whose both ends closed is closed by the relay too: a bench that
    /// races hundreds of times must not leave a socket pair behind for each race.
    @Test func aConnectionClosedAtBothEndsLeavesNoSocketsBehind() throws {
        let listener = try Sockets.listen(host: "127.0.0.1", port: 0)
        defer { Glibc.close(listener) }
        let relay = try DelayRelay(to: Sockets.localPort(listener), delayMs: 1)
        defer { relay.stop() }
        for _ in 0..<3 {
            let client = try Sockets.connect(host: "127.0.0.1", port: relay.port)
            let server = try accept(listener)
            write(client, Array("hi\n".utf8))
            #expect(read(server, count: 3) == Array("hi\n".utf8))
            #expect(relay.openConnections == 1)
            Glibc.close(client)
            Glibc.close(server)
            // Waits for the result (a minute at most: without the closing it never comes).
            let giveUp = DelayRelay.nowNs() + 60_000_000_000
            while relay.openConnections > 0, DelayRelay.nowNs() < giveUp { usleep(1_000) }
            #expect(relay.openConnections == 0)
        }
    }
}
