import Foundation
import Glibc
import SetNet
import SetRules
import Synchronization
import Testing

@Suite struct OutboundBufferTests {
    func socketPair() -> (Int32, Int32) {
        var fds: [Int32] = [0, 0]
        socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &fds)
        try? Sockets.setNonBlocking(fds[0])
        return (fds[0], fds[1])
    }

    func readAll(_ fd: Int32, expecting count: Int) -> [UInt8] {
        var received: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while received.count < count {
            let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            guard n > 0 else { break }
            received += chunk[0..<n]
        }
        return received
    }

    @Test func queuedChunksArriveInOrderInOneFlush() {
        let (writer, reader) = socketPair()
        defer { close(writer); close(reader) }
        var buffer = OutboundBuffer()
        buffer.append(Array("first\n".utf8))
        buffer.append(Array("second\n".utf8))
        #expect(buffer.count == 13)
        #expect(buffer.flush(to: writer) == .drained)
        #expect(buffer.isEmpty)
        #expect(readAll(reader, expecting: 13) == Array("first\nsecond\n".utf8))
    }

    @Test func aFullSocketBlocksThenDrainsWithoutLosingABye() {
        let (writer, reader) = socketPair()
        defer { close(writer); close(reader) }
        var buffer = OutboundBuffer()
        var expected: [UInt8] = []
        for index in 0..<4_000 {
            let line = Array("line \(index) \(String(repeating: "x", count: 200))\n".utf8)
            expected += line
            buffer.append(line)
        }
        #expect(buffer.flush(to: writer) == .blocked)
        #expect(buffer.count > 0)
        var received: [UInt8] = []
        while received.count < expected.count {
            received += readAll(reader, expecting: min(expected.count - received.count, 1))
            _ = buffer.flush(to: writer)
        }
        #expect(received == expected)
        #expect(buffer.isEmpty)
    }

    @Test func writingToAClosedPeerFails() {
        Sockets.ignoreBrokenPipes()
        let (writer, reader) = socketPair()
        close(reader)
        defer { close(writer) }
        var buffer = OutboundBuffer()
        buffer.append([1, 2, 3])
        guard case .failed = buffer.flush(to: writer) else {
            Issue.record("expected a failure")
            return
        }
    }
}

@Suite struct EventLoopTests {
    @Test func tasksFromOtherThreadsRunOnTheLoopAndStopEndsIt() throws {
        let loop = try EventLoop()
        let ran = Mutex<[Int]>([])
        let done = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            loop.run(timeout: { -1 }, tick: {})
            done.signal()
        }
        for index in 0..<5 { loop.execute { ran.withLock { $0.append(index) } } }
        loop.execute { loop.stop() }
        done.wait()
        #expect(ran.withLock { $0 } == [0, 1, 2, 3, 4])
    }

    @Test func aReadableSocketCallsItsHandler() throws {
        let loop = try EventLoop()
        var fds: [Int32] = [0, 0]
        socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &fds)
        defer { close(fds[0]); close(fds[1]) }
        let seen = Mutex<Readiness>([])
        try loop.register(fds[0]) { readiness in
            seen.withLock { $0.formUnion(readiness) }
            loop.stop()
        }
        _ = write(fds[1], "x", 1)
        loop.run(timeout: { 1_000 }, tick: {})
        #expect(seen.withLock { $0.contains(.readable) })
    }
}

@Suite struct TimeSourceTests {
    @Test func manualTimeMovesOnlyWhenTold() {
        let time = ManualTime(500)
        #expect(time.now() == Instant(milliseconds: 500))
        time.advance(by: 250)
        #expect(time.now() == Instant(milliseconds: 750))
        time.set(10)
        #expect(time.now() == Instant(milliseconds: 10))
    }

    @Test func monotonicTimeNeverGoesBack() {
        let time = MonotonicTime()
        var last = time.now()
        for _ in 0..<1_000 {
            let now = time.now()
            #expect(now >= last)
            last = now
        }
        #expect(last.milliseconds >= 0)
    }
}
