import Foundation
import SetNet
import SetRules
@testable import SetServer
import SetWire
import Testing

/// What lies in the data folder is what the log says (issue 22, items 3 and 5): a copied journal
/// never becomes a second room of its match, a journal set aside twice in one second is kept
/// both times, and a journal the server failed to create is not left behind to look damaged.
@Suite(.serialized) struct JournalFolderTests {
    func temporaryDirectory() -> String { temporaryFolder("setgame-folder") }

    func files(in folder: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).sorted()
    }

    /// The README says backups are file copies: one left beside its journal used to come back as
    /// a second room of the same match, and retiring one left the other to bring the finished
    /// game back as `playing` at the next start.
    @Test func aCopiedJournalIsSetAsideAndAFinishedGameStaysFinished() throws {
        let data = temporaryDirectory()
        var server: TestServer? = try TestServer { $0.dataDirectory = data }
        let seated = try TestClient.duel(server!, match: "twin")
        let tokens = (try #require(seated.0.token), try #require(seated.1.token))
        withExtendedLifetime(seated) { server?.stop() }
        try FileManager.default.copyItem(atPath: data + "/twin.jsonl", toPath: data + "/twin-backup.jsonl")

        server = try TestServer { $0.dataDirectory = data }
        #expect(server!.restoredMatches == ["twin"])
        let log = server!.logLines.all.joined(separator: "\n")
        #expect(log.contains("journal twin-backup.jsonl holds match \"twin\", whose journal is twin.jsonl"), "\(log)")
        #expect(files(in: data + "/damaged").contains { $0.hasPrefix("twin-backup.jsonl.") })
        var ann: TestClient? = try TestClient.joined(server!, name: "ann", match: "twin", token: tokens.0)
        var bob: TestClient? = try TestClient.joined(server!, name: "bob", match: "twin", token: tokens.1)
        try ann!.awaitSeq(bob!.view!.seq)
        ann!.send(.act(.resign, seat: nil))
        _ = try bob!.awaitEvent("over") { if case .gameOver = $0 { true } else { false } }
        (ann, bob) = (nil, nil)
        let probe = try TestClient(port: server!.port)
        _ = try probe.next("welcome")
        probe.send(.list())
        _ = try probe.waitFor("an empty list") { if case .matches(let list, _, _) = $0, list.isEmpty { true } else { nil } }
        server?.stop()

        server = try TestServer { $0.dataDirectory = data }
        defer { server?.stop() }
        #expect(server!.restoredMatches.isEmpty, "a finished game came back")
        let late = try TestClient(port: server!.port)
        _ = try late.next("welcome")
        late.send(.join(JoinRequest(name: "ann", match: "twin", token: tokens.0)))
        #expect(try late.awaitError(.badToken).fatal == false)
    }

    /// Two journals damaged under one name within a second: the second used to stay where it was
    /// while the log said it had moved.
    @Test func aJournalSetAsideTwiceInOneSecondIsKeptBothTimes() throws {
        let data = temporaryDirectory()
        let lines = ServerLogLines()
        var directory = JournalDirectory(path: data, log: lines.log)
        directory.wallSeconds = { 1_800_000_000 }
        try directory.prepareChecked()
        for damage in ["first damage\n{}\n", "second damage\n{}\n"] {
            try damage.write(toFile: data + "/torn.jsonl", atomically: false, encoding: .utf8)
            #expect(directory.restoreAll(seatWaitMs: 1_000, spectatorAnnounceMs: 0).isEmpty)
        }
        #expect(!FileManager.default.fileExists(atPath: data + "/torn.jsonl"))
        #expect(files(in: data + "/damaged") == ["torn.jsonl.1800000000", "torn.jsonl.1800000000-2"])
        #expect(try String(contentsOfFile: data + "/damaged/torn.jsonl.1800000000-2", encoding: .utf8) == "second damage\n{}\n")
        // Each log line names the file where it really is.
        let moves = lines.all.filter { $0.contains("journal torn.jsonl is damaged") }
        #expect(moves.count == 2 && moves[1].hasSuffix("moved to \(data)/damaged/torn.jsonl.1800000000-2"), "\(moves)")
    }

    /// A file that cannot be moved stays, and the log says so rather than that it moved.
    @Test func aJournalThatCannotBeSetAsideIsReportedAsStaying() throws {
        let data = temporaryDirectory()
        let lines = ServerLogLines()
        let directory = JournalDirectory(path: data, log: lines.log)  // no damaged/ to move it into
        try "damage\n{}\n".write(toFile: data + "/stuck.jsonl", atomically: false, encoding: .utf8)
        #expect(directory.restoreAll(seatWaitMs: 1_000, spectatorAnnounceMs: 0).isEmpty)
        #expect(FileManager.default.fileExists(atPath: data + "/stuck.jsonl"))
        let line = try #require(lines.all.first { $0.contains("stuck.jsonl") })
        #expect(line.contains("could not be moved") && line.hasSuffix("so it stays where it is") && !line.contains("; moved to"), "\(line)")
    }

    /// A duel refused with `journal_failed` on a full disk used to leave the empty journal it
    /// had just created, which the next start called damaged: data loss where there was none.
    @Test func aDuelRefusedOnAFullDiskLeavesNoJournalBehind() throws {
        let data = temporaryDirectory()
        let faults = JournalFaults()
        var server: TestServer? = try TestServer {
            $0.dataDirectory = data
            $0.journalFaults = faults
        }
        let ann = try TestClient.joined(server!, name: "ann", match: "full")
        faults.failing = true
        let bob = try TestClient(port: server!.port)
        _ = try bob.next("welcome")
        bob.send(.join(JoinRequest(name: "bob", match: "full")))
        #expect(try bob.awaitError(.journalFailed).fatal == false)
        #expect(files(in: data).filter { $0.hasSuffix(".jsonl") }.isEmpty, "\(files(in: data))")
        withExtendedLifetime(ann) { server?.stop() }
        server = nil
        #expect(files(in: data + "/finished").isEmpty)

        let again = try TestServer { $0.dataDirectory = data }
        defer { again.stop() }
        #expect(!again.logLines.all.contains { $0.contains("damaged") }, "\(again.logLines.all)")
        #expect(files(in: data + "/damaged").isEmpty)
    }

    /// Once the disk has room again the same duel is dealt, and its journal is written whole.
    @Test func theRefusedDuelIsDealtOnceTheDiskHasRoom() throws {
        let data = temporaryDirectory()
        let faults = JournalFaults()
        let server = try TestServer {
            $0.dataDirectory = data
            $0.journalFaults = faults
        }
        defer { server.stop() }
        let ann = try TestClient.joined(server, name: "ann", match: "room")
        faults.failing = true
        let bob = try TestClient(port: server.port)
        _ = try bob.next("welcome")
        bob.send(.join(JoinRequest(name: "bob", match: "room")))
        _ = try bob.awaitError(.journalFailed)
        faults.failing = false
        server.advance(by: 1_000)
        ann.send(.ping(time: 7))
        _ = try ann.waitFor("pong") { if case .pong(_, 7, _) = $0 { true } else { nil } }
        bob.send(.join(JoinRequest(name: "bob", match: "room")))
        _ = try bob.waitFor("joined") { if case .joined = $0 { true } else { nil } }
        _ = try bob.waitFor("snapshot") { if case .snapshot = $0 { true } else { nil } }
        let records = try JournalFile.read(data + "/room.jsonl", repair: false).records
        guard case .header(let name, .duel, _, _) = records.first else {
            Issue.record("no header: \(records)")
            return
        }
        #expect(name == "room")
        #expect(records.contains { if case .game = $0 { true } else { false } })
        #expect(try JournalReplay.host(from: records, seatWaitMs: 120_000).game == 1)
    }
}
