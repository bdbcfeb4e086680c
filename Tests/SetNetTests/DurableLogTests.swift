import Foundation
import Glibc
import SetNet
import Testing

/// The one append-only log type the journals are made of (issue 33): an
/// append is whole or not there, a torn tail is cut off when the log is opened, damage is set
/// aside with a note, and a failing write comes back as a value with nothing of it in the file.
@Suite struct DurableLogTests {
    func temporaryFolder() -> String {
        let path = NSTemporaryDirectory() + "durable-log-\(UUID().uuidString)"
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    func contents(_ path: String) -> String {
        (try? String(contentsOfFile: path, encoding: .utf8)) ?? "<missing>"
    }

    /// Every line of the log at `path`, read the way the server reads them back.
    func lines(_ path: String, cutTornTail: Bool = false) throws(DurableLog.ReadProblem) -> (lines: [String], summary: DurableLog.ReadSummary) {
        var lines: [String] = []
        let summary = try DurableLog.read(path: path, cutTornTail: cutTornTail, decode: { line in
            guard line.first == UInt8(ascii: "{") else { return .failure(DurableLog.BadLine(reason: "not a record")) }
            return .success(String(decoding: line, as: UTF8.self))
        }, check: { _ in nil }) { _, line in lines.append(line) }
        return (lines, summary)
    }

    /// The sweep asks for its journals' syncs together: a log is added only while something
    /// appended waits to be synced, once, and never after its close.
    @Test func aLogJoinsASyncTogetherOnlyWhileSomethingWaits() throws {
        let folder = temporaryFolder()
        let waiting = try DurableLog(path: folder + "/waiting.jsonl", opening: .new)
        let synced = try DurableLog(path: folder + "/synced.jsonl", opening: .new)
        let closed = try DurableLog(path: folder + "/closed.jsonl", opening: .new)
        #expect(waiting.append(Array("{\"a\":1}\n".utf8)) == nil)
        #expect(synced.append(Array("{\"a\":1}\n".utf8), durability: .now) == nil)
        #expect(closed.append(Array("{\"a\":1}\n".utf8)) == nil)
        closed.close()
        var together = SyncTogether()
        for log in [waiting, synced, closed, waiting] { log.syncSoon(with: &together) }
        #expect(together.count == 1)
        #expect(!waiting.needsSync)
        together.ask()
        waiting.close()
        synced.close()
        DurableLog.drain()
        #expect(contents(folder + "/waiting.jsonl") == "{\"a\":1}\n")
    }

    @Test func appendedLinesAreThereAfterSyncAndReopen() throws {
        let path = temporaryFolder() + "/log.jsonl"
        let log = try DurableLog(path: path, opening: .new)
        #expect(log.append(Array("{\"a\":1}\n".utf8), durability: .now) == nil)
        #expect(log.append(Array("{\"b\":2}\n".utf8)) == nil && log.needsSync)
        log.syncSoon()
        #expect(!log.needsSync)
        log.close()
        DurableLog.drain()
        #expect(throws: DurableLog.Failure.self) { try DurableLog(path: path, opening: .new) }

        let reopened = try DurableLog(path: path, opening: .existing)
        #expect(reopened.length == 16 && reopened.droppedTail == 0)
        #expect(reopened.append(Array("{\"c\":3}\n".utf8), durability: .soon) == nil)
        reopened.close()
        DurableLog.drain()
        #expect(try lines(path).lines == [#"{"a":1}"#, #"{"b":2}"#, #"{"c":3}"#])
        let missing = #expect(throws: DurableLog.Failure.self) { try DurableLog(path: path + ".none", opening: .existing) }
        #expect(missing?.step == .open && missing?.error.code == ENOENT)
    }

    /// A crash mid-append leaves a last line without its newline: opening the log cuts it off
    /// and says how much went, however long it is (the search for the newline spans chunks).
    @Test func aTornTailIsCutOffWhenTheLogIsOpened() throws {
        let folder = temporaryFolder()
        let cases: [(written: String, kept: String)] = [
            ("{\"a\":1}\n{\"b\":2}\n{\"tor", "{\"a\":1}\n{\"b\":2}\n"),
            ("{\"a\":1}\n" + String(repeating: "x", count: 10_000), "{\"a\":1}\n"),
            ("no newline at all", ""),
            ("{\"a\":1}\n", "{\"a\":1}\n"),
            ("", ""),
        ]
        for (index, (written, kept)) in cases.enumerated() {
            let path = "\(folder)/torn-\(index).jsonl"
            try written.write(toFile: path, atomically: false, encoding: .utf8)
            let log = try DurableLog(path: path, opening: .existingOrNew)
            #expect(log.droppedTail == written.utf8.count - kept.utf8.count && log.length == kept.utf8.count, "case \(index)")
            #expect(contents(path) == kept, "case \(index)")
            #expect(log.append(Array("{\"next\":1}\n".utf8)) == nil)
            #expect(contents(path) == kept + "{\"next\":1}\n", "case \(index)")
        }
    }

    /// Reading back, a last line that has its newline but is not a record is torn too: it is
    /// left out (and cut with `cutTornTail`); the same line anywhere else is damage, numbered.
    @Test func aReaderForgivesOnlyTheLastLine() throws {
        let folder = temporaryFolder()
        let torn = folder + "/torn.jsonl"
        try "{\"a\":1}\n{\"b\":2}\nhalf a reco\n".write(toFile: torn, atomically: false, encoding: .utf8)
        let read = try lines(torn, cutTornTail: true)
        #expect(read.lines == [#"{"a":1}"#, #"{"b":2}"#] && read.summary.droppedTail == 12 && read.summary.goodBytes == 16)
        #expect(contents(torn) == "{\"a\":1}\n{\"b\":2}\n")

        let damaged = folder + "/damaged.jsonl"
        try "{\"a\":1}\nnot a record\n{\"c\":3}\n".write(toFile: damaged, atomically: false, encoding: .utf8)
        let problem = #expect(throws: DurableLog.ReadProblem.self) { try lines(damaged) }
        guard case .corrupt(let line, let reason) = problem else { return #expect(Bool(false), "\(String(describing: problem))") }
        #expect(line == 2 && reason == "not a record")
        #expect(contents(damaged) == "{\"a\":1}\nnot a record\n{\"c\":3}\n", "damage is never cut")
    }

    /// Damage goes to `damaged/` under a name no earlier file has, and the note says where it
    /// is, or that it stays where it was when it cannot be moved.
    @Test func damageIsSetAsideWithANoteWhy() throws {
        let folder = temporaryFolder()
        try FileManager.default.createDirectory(atPath: folder + "/damaged", withIntermediateDirectories: true)
        let damaged = DamagedFiles(folder: folder + "/damaged", wallSeconds: { 1_800_000_000 })
        var notes: [String] = []
        for text in ["first\n", "second\n"] {
            try text.write(toFile: folder + "/bad.jsonl", atomically: false, encoding: .utf8)
            let outcome = damaged.setAside(folder + "/bad.jsonl")
            notes.append(damaged.note("bad.jsonl is damaged (record 1: not a record)", outcome))
        }
        #expect(!FileManager.default.fileExists(atPath: folder + "/bad.jsonl"))
        #expect(contents(folder + "/damaged/bad.jsonl.1800000000") == "first\n")
        #expect(contents(folder + "/damaged/bad.jsonl.1800000000-2") == "second\n")
        #expect(notes == ["bad.jsonl is damaged (record 1: not a record); moved to \(folder)/damaged/bad.jsonl.1800000000",
                          "bad.jsonl is damaged (record 1: not a record); moved to \(folder)/damaged/bad.jsonl.1800000000-2"])

        let nowhere = DamagedFiles(folder: folder + "/missing", wallSeconds: { 1 })
        try "third\n".write(toFile: folder + "/stuck.jsonl", atomically: false, encoding: .utf8)
        let outcome = nowhere.setAside(folder + "/stuck.jsonl")
        #expect(outcome.destination == nil && contents(folder + "/stuck.jsonl") == "third\n")
        #expect(nowhere.note("stuck", outcome) == "stuck; it could not be moved to \(folder)/missing (rename: No such file or directory), so it stays where it is")
    }

    /// A disk that fills part way through an append: the failure is a value naming the step and
    /// the errno, the bytes that did fit are cut back, and the next append after room is made
    /// follows the last whole line.
    @Test func aFailingWriteIsReportedAndNothingOfItStays() throws {
        let path = temporaryFolder() + "/full.jsonl"
        let faults = DurableLog.Faults()
        let log = try DurableLog(path: path, opening: .new, faults: faults)
        #expect(log.append(Array("{\"a\":1}\n".utf8), durability: .now) == nil)

        faults.roomLeft = 5
        let partial = try #require(log.append(Array("{\"b\":2}\n".utf8), durability: .now))
        #expect(partial.step == .write && partial.error.code == ENOSPC)
        #expect(partial.description == "writing \(path) failed: write: No space left on device")
        #expect(contents(path) == "{\"a\":1}\n" && log.length == 8, "the five bytes that fit are cut back")

        faults.roomLeft = nil
        faults.failing = true
        let refused = try #require(log.append(Array("{\"c\":3}\n".utf8)))
        #expect(refused.step == .write && refused.error.code == ENOSPC && contents(path) == "{\"a\":1}\n")

        faults.failing = false
        #expect(log.append(Array("{\"d\":4}\n".utf8), durability: .now) == nil)
        #expect(contents(path) == "{\"a\":1}\n{\"d\":4}\n")
    }

    /// Bytes past the last whole line (an earlier append that could not be cut back) are cut
    /// before the next append, which would otherwise bury them mid-file.
    @Test func anAppendFirstCutsWhatAnEarlierFailureLeft() throws {
        let path = temporaryFolder() + "/left.jsonl"
        let faults = DurableLog.Faults()
        let log = try DurableLog(path: path, opening: .new, faults: faults)
        #expect(log.append(Array("{\"a\":1}\n".utf8)) == nil)
        faults.roomLeft = 4
        faults.cutBackFailing = true
        let failed = try #require(log.append(Array("{\"half\":1}\n".utf8)))
        #expect(failed.step == .write && contents(path) == "{\"a\":1}\n{\"ha", "the cut back failed: four bytes stand")
        // While the cut still fails, nothing is added after them.
        faults.roomLeft = nil
        let stuck = try #require(log.append(Array("{\"b\":2}\n".utf8)))
        #expect(stuck.step == .cutBack && contents(path) == "{\"a\":1}\n{\"ha")
        faults.cutBackFailing = false
        #expect(log.append(Array("{\"b\":2}\n".utf8)) == nil)
        #expect(contents(path) == "{\"a\":1}\n{\"b\":2}\n")
    }

    /// A real device that takes nothing: the failure is a value, the log's length unchanged.
    @Test func aFullDeviceIsAFailureValue() throws {
        let log = try DurableLog(path: "/dev/full", opening: .existing)
        let failure = try #require(log.append(Array("{\"a\":1}\n".utf8), durability: .later))
        #expect(failure.step == .write && failure.error.code == ENOSPC && log.length == 0)
        log.close()
    }
}
