import Glibc
import SetNet
import SetWire
import Testing

/// The one line socket: byte lines in whatever chunks the peer writes, end of stream, a full
/// socket that blocks and then drains (writability watched only meanwhile), the cap on what may
/// wait, and a close that still delivers the last line.
@Suite struct LineSocketTests {
    /// A connected pair of Unix stream sockets: the first non-blocking, for the `LineSocket`; the
    /// second blocking, for the test's side.
    func socketPair(sendBufferBytes: Int32? = nil) -> (Int32, Int32) {
        var fds: [Int32] = [0, 0]
        socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &fds)
        try? Sockets.setNonBlocking(fds[0])
        if var size = sendBufferBytes {
            setsockopt(fds[0], SOL_SOCKET, SO_SNDBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        }
        return (fds[0], fds[1])
    }

    func write(_ bytes: ArraySlice<UInt8>, to fd: Int32) {
        let written = Array(bytes).withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
        #expect(written == bytes.count)
    }

    /// Runs one batch of the loop without waiting, as if epoll had just returned.
    func runOneBatch(_ loop: EventLoop) {
        loop.run(timeout: { 0 }, tick: { loop.stop() })
        loop.clearStop()
    }

    static let stream: [UInt8] = Array("{\"type\":\"ping\"}\r\n\nnaïve 🎴 line\n".utf8) + [0x66, 0xFF, 0x0A]
        + Array(String(repeating: "x", count: 40).utf8) + [0x0A] + Array("tail".utf8)

    @Test(arguments: [1, 2, 7, 4096])
    func linesAreTheSameWhateverTheChunks(chunkSize: Int) {
        let (mine, theirs) = socketPair()
        defer { close(theirs) }
        let socket = LineSocket(adopting: mine, maxLineBytes: 32)
        var lines: [LineReader.Line] = []
        var offset = 0
        while offset < Self.stream.count {
            let end = min(offset + chunkSize, Self.stream.count)
            write(Self.stream[offset..<end], to: theirs)
            guard case .lines(let read) = socket.read() else {
                Issue.record("bytes were written, so a read brings them")
                return
            }
            lines += read
            offset = end
        }
        var reader = LineReader(maxLineBytes: 32)
        #expect(lines == reader.feed(Self.stream))
        #expect(lines.first == .complete(Array("{\"type\":\"ping\"}".utf8)))
        #expect(socket.isMidLine, "\"tail\" waits for its newline")
    }

    @Test func nothingToReadThenEndOfStream() {
        let (mine, theirs) = socketPair()
        let socket = LineSocket(adopting: mine)
        guard case .nothing = socket.read() else {
            Issue.record("an empty socket has nothing")
            return
        }
        close(theirs)
        guard case .endOfStream = socket.read() else {
            Issue.record("a closed peer is the end of the stream")
            return
        }
    }

    @Test func aBlockedWriteWatchesWritabilityUntilItDrains() throws {
        let (mine, theirs) = socketPair(sendBufferBytes: 4_096)
        defer { close(theirs) }
        let loop = try EventLoop()
        let socket = LineSocket(adopting: mine)
        var writableSeen = 0
        try socket.watch(on: loop) { readiness in
            if readiness.contains(.writable) {
                writableSeen += 1
                socket.flush()
            }
        }
        var expected: [UInt8] = []
        for index in 0..<2_000 { expected += Array("line \(index) \(String(repeating: "x", count: 200))\n".utf8) }
        #expect(socket.send(expected))
        #expect(socket.flush() == .blocked)
        #expect(socket.wantsWrite)
        var received: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65_536)
        for _ in 0..<100_000 where received.count < expected.count {
            var ready = pollfd(fd: theirs, events: Int16(POLLIN), revents: 0)
            if poll(&ready, 1, 0) == 1 {
                let count = chunk.withUnsafeMutableBytes { Glibc.read(theirs, $0.baseAddress, $0.count) }
                if count > 0 { received += chunk[0..<count] }
            }
            runOneBatch(loop)
        }
        #expect(received == expected)
        #expect(socket.pendingBytes == 0 && !socket.wantsWrite)
        #expect(writableSeen > 0, "the rest left when the loop said the socket had room")
        let afterDrain = writableSeen
        runOneBatch(loop)
        #expect(writableSeen == afterDrain, "a drained socket is not watched for writability")
        socket.close()
    }

    @Test func aPeerThatNeverReadsIsGivenUpAtTheCap() {
        let (mine, theirs) = socketPair(sendBufferBytes: 4_096)
        defer { close(theirs) }
        let socket = LineSocket(adopting: mine, maxQueuedBytes: 16 * 1024)
        var reasons: [String] = []
        socket.onClose = { reasons.append($0) }
        let line = [UInt8](repeating: 0x61, count: 99) + [0x0A]
        var sent = 0
        while socket.isOpen && sent < 1_000_000 {
            #expect(socket.fits(line.count) == socket.send(line) || !socket.isOpen)
            socket.flush()
            #expect(socket.pendingBytes <= 16 * 1024)
            sent += 1
        }
        #expect(!socket.isOpen)
        #expect(reasons.count == 1)
        #expect(reasons.first?.hasPrefix("the server is not reading what we send") == true, "\(reasons)")
        #expect(!socket.send(line), "a closed socket takes nothing")
    }

    @Test func theLastLineReplacesWhatWasNotBegun() {
        let (mine, theirs) = socketPair(sendBufferBytes: 4_096)
        defer { close(theirs) }
        let socket = LineSocket(adopting: mine)
        for index in 0..<1_000 { socket.send(Array("event \(index) \(String(repeating: "y", count: 100))\n".utf8)) }
        #expect(socket.flush() == .blocked)
        socket.replaceUnstartedLines(with: Array("fatal\n".utf8))
        var received: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while socket.flush() != .drained || received.last != 0x0A {
            let count = chunk.withUnsafeMutableBytes { Glibc.read(theirs, $0.baseAddress, $0.count) }
            guard count > 0 else { break }
            received += chunk[0..<count]
        }
        let lines = received.split(separator: 0x0A).map { String(decoding: $0, as: UTF8.self) }
        #expect(lines.last == "fatal")
        #expect(lines.dropLast().allSatisfy { $0.hasPrefix("event ") && $0.hasSuffix("y") }, "whole lines only")
        #expect(lines.count < 1_000)
    }

    /// A peer with requests still unread would get a reset from a plain close, which can destroy
    /// the line before it is read; closing after delivering sends it, then end of stream.
    @Test func closingAfterDeliveringSendsTheLastLineThenEndOfStream() throws {
        Sockets.ignoreBrokenPipes()
        let listener = try Listener(host: "127.0.0.1", port: 0, maxLineBytes: 1 << 20, maxQueuedBytes: 1 << 20)
        let client = try Sockets.connect(host: "127.0.0.1", port: listener.port)
        defer { close(client) }
        Sockets.setReceiveTimeout(client, milliseconds: 10_000)
        var ready = pollfd(fd: listener.fd, events: Int16(POLLIN), revents: 0)
        #expect(poll(&ready, 1, 10_000) == 1)
        let socket = try #require(try listener.accept())
        let requests = Array(String(repeating: "{\"type\":\"ping\"}\n", count: 200).utf8)
        #expect(requests.withUnsafeBytes { Glibc.write(client, $0.baseAddress, $0.count) } == requests.count)
        var closedBecause: String?
        socket.onClose = { closedBecause = $0 }
        let loop = try EventLoop()
        socket.send(Array("{\"type\":\"error\",\"fatal\":true}\n".utf8))
        #expect(socket.closeAfterDelivering(on: loop))
        var received: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4_096)
        while true {
            let count = chunk.withUnsafeMutableBytes { Glibc.read(client, $0.baseAddress, $0.count) }
            guard count > 0 else {
                #expect(count == 0, "end of stream, not a reset or a time-out")
                break
            }
            received += chunk[0..<count]
        }
        #expect(String(decoding: received, as: UTF8.self) == "{\"type\":\"error\",\"fatal\":true}\n")
        #expect(socket.isOpen, "it waits for the peer to hang up")
        shutdown(client, Int32(SHUT_WR))
        // The wait is only a guard against a hang: the socket closes as soon as it reads the end.
        loop.run(timeout: { 1_000 }, tick: { if !socket.isOpen { loop.stop() } })
        #expect(closedBecause == "delivered")
    }

    /// What a client driven by its loop hears: the connect finishing, byte lines, then the end,
    /// said in words; only whole lines of valid UTF-8 come through.
    @Test func aClientSocketConnectsReadsLinesAndEndsSayingWhy() throws {
        let listener = try Listener(host: "127.0.0.1", port: 0, maxLineBytes: 1 << 20, maxQueuedBytes: 1 << 20)
        let loop = try EventLoop()
        let client = try LineSocket.connect(host: "127.0.0.1", port: listener.port, waitForConnection: false, maxLineBytes: 16)
        #expect(client.write(Array("hello\n".utf8)), "queued while connecting")
        var heardByClient: [String] = []
        var connected = !client.isConnecting
        client.onConnected = { connected = true }
        client.onLine = { heardByClient.append(String(decoding: $0, as: UTF8.self)) }
        client.onClose = { heardByClient.append("ended: \($0)") }
        try client.serve(on: loop)
        // The waits are only guards against a hang: each step is ready at once on loopback.
        if !connected { loop.run(timeout: { 10_000 }, tick: { if connected { loop.stop() } }) }
        loop.clearStop()
        #expect(connected && !client.isConnecting)
        var ready = pollfd(fd: listener.fd, events: Int16(POLLIN), revents: 0)
        #expect(poll(&ready, 1, 10_000) == 1)
        let server = try #require(try listener.accept())
        // Read before closing: a close with input unread would reset the connection.
        var input = pollfd(fd: server.fd, events: Int16(POLLIN), revents: 0)
        #expect(poll(&input, 1, 10_000) == 1)
        guard case .lines(let heard) = server.read() else {
            Issue.record("the request did not arrive")
            return
        }
        #expect(heard == [.complete(Array("hello".utf8))])
        server.send(Array("one\n".utf8) + [0xFF, 0x0A] + Array(String(repeating: "z", count: 20).utf8) + Array("\ntwo\n".utf8))
        server.flush()
        server.close()
        loop.run(timeout: { 10_000 }, tick: { if !client.isOpen { loop.stop() } })
        #expect(heardByClient == ["one", "two", "ended: the server closed the connection"])
        #expect(!client.isOpen && client.closeReason == "the server closed the connection")
    }

    @Test func aRefusedConnectEndsSayingWhere() throws {
        let listener = try Listener(host: "127.0.0.1", port: 0, maxLineBytes: 64, maxQueuedBytes: 64)
        let port = listener.port
        listener.close()
        do {
            let loop = try EventLoop()
            let client = try LineSocket.connect(host: "127.0.0.1", port: port, waitForConnection: false)
            var reason: String?
            client.onConnected = { Issue.record("a refused connect never connects") }
            client.onClose = { reason = $0 }
            try client.serve(on: loop)
            loop.run(timeout: { 10_000 }, tick: { if !client.isOpen { loop.stop() } })
            let said = try #require(reason, "a refused connect ends the socket")
            #expect(said.hasPrefix("cannot connect to 127.0.0.1:\(port): connect: "), "\(said)")
        } catch let error as SystemCallError {
            #expect(error.call.hasPrefix("connect to 127.0.0.1:\(port)"), "refused at once: \(error)")
        }
    }

    @Test func aListenerHandsOutSocketsAndLendsItsReserve() throws {
        let listener = try Listener(host: "127.0.0.1", port: 0, maxLineBytes: 64, maxQueuedBytes: 1_024)
        #expect(try listener.accept() == nil, "nobody waits")
        let client = try Sockets.connect(host: "127.0.0.1", port: listener.port)
        defer { close(client) }
        var ready = pollfd(fd: listener.fd, events: Int16(POLLIN), revents: 0)
        #expect(poll(&ready, 1, 10_000) == 1)
        var accepted: LineSocket?
        #expect(listener.usingReserve { accepted = try? listener.accept() })
        let socket = try #require(accepted)
        #expect(socket.maxQueuedBytes == 1_024)
        #expect(!socket.fits(1_025))
        listener.close()
    }
}
