import Foundation
import Glibc
import SetNet
import Testing

/// One helper makes every descriptor call: an interrupted call is made again, "not now" is told
/// apart from failure, and the journal's appends, syncs and lock go through it too.
@Suite struct SystemCallTests {
    @Test func aCallInterruptedBySignalsIsMadeAgain() {
        var calls = 0
        let result = SystemCall.run {
            calls += 1
            guard calls > 2 else {
                errno = EINTR
                return -1
            }
            return 7
        }
        #expect(result == .done(7) && calls == 3)
    }

    @Test func notNowIsToldApartFromFailure() throws {
        var ends: [Int32] = [0, 0]
        #expect(pipe(&ends) == 0)
        defer { ends.forEach { _ = Glibc.close($0) } }
        try Sockets.setNonBlocking(ends[0])
        var byte: UInt8 = 0
        #expect(SystemCall.run { Glibc.read(ends[0], &byte, 1) } == .wouldBlock, "nothing to read yet")
        #expect(SystemCall.run { Glibc.read(-1, &byte, 1) } == .failed(EBADF))
    }

    @Test func anAppendToAFullDiskSaysHowFarItGot() throws {
        let fd = open("/dev/full", O_WRONLY | O_CLOEXEC)
        try #require(fd >= 0)
        defer { Glibc.close(fd) }
        let failure = try #require(FileCalls.append(Array("{\"type\":\"tick\"}\n".utf8), to: fd))
        #expect(failure.written == 0 && failure.error.code == ENOSPC)
    }

    @Test func anAppendWritesEverythingAndALockIsHeldOnce() throws {
        let path = NSTemporaryDirectory() + "syscall-\(UUID().uuidString)"
        let fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o600)
        try #require(fd >= 0)
        defer {
            Glibc.close(fd)
            unlink(path)
        }
        let bytes = Array(repeating: UInt8(ascii: "x"), count: 100_000)
        #expect(FileCalls.append(bytes, to: fd) == nil && FileCalls.syncData(fd))
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)).count == bytes.count)

        try FileCalls.lockExclusively(fd, "lock")
        let other = open(path, O_RDONLY | O_CLOEXEC)
        defer { Glibc.close(other) }
        #expect(throws: SystemCallError.self) { try FileCalls.lockExclusively(other, "lock again") }
        do { try FileCalls.lockExclusively(other, "lock again") } catch { #expect(error.wouldBlock) }
    }

    /// The raw-buffer forms of whole writes and reads (a journal's append is one): a read
    /// from a pipe comes back short (a pipe holds 64 KiB), so all of it takes many reads.
    @Test func aWholeBufferIsWrittenAndReadBackThroughShortReads() throws {
        var ends: [Int32] = [0, 0]
        #expect(pipe(&ends) == 0)
        defer { Glibc.close(ends[0]) }
        let sent = (0..<300_000).map { UInt8(truncatingIfNeeded: $0 &* 7) }
        let writeEnd = ends[1]
        let writer = Thread {
            sent.withUnsafeBytes { #expect(FileCalls.write($0, to: writeEnd) == nil) }
            Glibc.close(writeEnd)
        }
        writer.start()
        var received = [UInt8](repeating: 0, count: sent.count)
        #expect(received.withUnsafeMutableBytes { Self.fill($0, from: ends[0]) })
        #expect(received == sent)
        // The writer's end is closed once it is done: one more byte is past the end.
        var more: UInt8 = 0
        #expect(!withUnsafeMutableBytes(of: &more) { Self.fill($0, from: ends[0]) })
    }

    /// Fills all of `buffer` from `fd` through `readSome`; false when the file ends first.
    private static func fill(_ buffer: UnsafeMutableRawBufferPointer, from fd: Int32) -> Bool {
        var offset = 0
        while offset < buffer.count {
            guard case .success(let count) = FileCalls.readSome(into: UnsafeMutableRawBufferPointer(rebasing: buffer[offset...]), from: fd),
                  count > 0 else { return false }
            offset += count
        }
        return true
    }

    @Test func aWriteToAFullDiskSaysHowFarItGot() throws {
        let fd = open("/dev/full", O_WRONLY | O_CLOEXEC)
        try #require(fd >= 0)
        defer { Glibc.close(fd) }
        let failure = try #require([UInt8](repeating: 1, count: 10).withUnsafeBytes { FileCalls.write($0, to: fd) })
        #expect(failure.written == 0 && failure.error.code == ENOSPC)
    }

    /// `SystemCall` is the one place that retries an interrupted call (issue 33): a loop on
    /// `EINTR` anywhere else is a second copy of it, which the next reader has to check again.
    @Test func onlySystemCallRetriesInterruptedCalls() throws {
        let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../Sources").standardized
        let files = try #require(FileManager.default.enumerator(atPath: sources.path)).compactMap { $0 as? String }.filter { $0.hasSuffix(".swift") }
        #expect(files.count > 50, "found the sources at \(sources.path)")
        // SetDatabase sits below SetNet (it cannot call `SystemCall`), and its one poll loop
        // (a statement awaited with its deadline) computes the time left again on each turn.
        let waived: Swift.Set = ["SetNet/SystemCall.swift", "SetDatabase/PostgresDeadlines.swift"]
        let retrying = try files.filter { file in
            guard !waived.contains(file) else { return false }
            return try String(contentsOfFile: sources.path + "/" + file, encoding: .utf8).contains("EINTR")
        }
        #expect(retrying.isEmpty, "\(retrying.sorted())")
    }
}
