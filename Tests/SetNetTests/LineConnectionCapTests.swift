import Glibc
import SetNet
import Testing

/// A connection whose peer never reads stops queueing at its cap and closes, saying why.
@Suite struct LineConnectionCapTests {
    @Test func aPeerThatNeverReadsIsGivenUpAtTheCap() throws {
        let listener = try Sockets.listen(host: "127.0.0.1", port: 0)
        defer { close(listener) }
        let loop = try EventLoop()
        let connection = try LineConnection(host: "127.0.0.1", port: Sockets.localPort(listener), loop: loop, maxQueuedBytes: 16 * 1024)
        var ready = pollfd(fd: listener, events: Int16(POLLIN), revents: 0)
        #expect(poll(&ready, 1, 2_000) == 1)
        let peer = try #require(try Sockets.accept(listener))
        defer { close(peer) }
        var reason: String?
        connection.onClose = { reason = $0 }
        let line = [UInt8](repeating: 0x61, count: 99) + [0x0A]
        var sent = 0
        while connection.isOpen && sent < 1_000_000 {
            connection.send(line)
            connection.flush()
            sent += 1
            #expect(connection.pendingBytes <= 16 * 1024)
        }
        #expect(!connection.isOpen)
        #expect(reason?.hasPrefix("the server is not reading what we send") == true, "\(reason ?? "still open")")
    }
}
