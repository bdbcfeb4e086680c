import Foundation
import SetNet
import SetRules
import SetServer
import SetTestSupport
import SetWire
import Testing

// Commit, then publish (issue 33): a game over is told only once its record is on disk, and an
// event with a given `seq` is the same bytes wherever and whenever it is sent.
extension AccountTests {
    /// Ann and bob seated with their keys, one scripted turn played, each caught up with the other.
    func duelAfterOneTurn(_ server: TestServer) throws -> (ann: TestClient, bob: TestClient) {
        let ann = try join(server, "ann", key: Self.annKey)
        let bob = try join(server, "bob", key: Self.bobKey)
        try ann.awaitSeq(bob.view!.seq)
        try playScriptedTurn(ann, bob)
        try bob.awaitSeq(ann.view!.seq)
        return (ann, bob)
    }

    /// The answer to a `snapshot` request: the phase it shows, or the error code it got.
    func snapshotAnswer(_ client: TestClient) throws -> String { try client.snapshotAnswer() }

    /// While the accounts store cannot commit, a spectator's next read, a `snapshot` request
    /// and a resume with `lastSeq` tell nothing of the game over or its ratings; once the record
    /// is committed the spectator is told, with the ratings, and snapshots show them.
    @Test(arguments: TestStoreKind.allCases) func nobodyLearnsOfAGameOverBeforeItsRecordIsCommitted(kind: TestStoreKind) throws {
        guard let accounts = try TestAccounts.make(kind) else { return }
        let faults = StoreFaults()
        let server = try server(data: temporaryDirectory(), accounts: accounts, storeFaults: faults)
        defer { server.stop() }
        let ann = try join(server, "ann", key: Self.annKey)
        let bob = try join(server, "bob", key: Self.bobKey)
        let wat = try join(server, "wat", key: nil, role: .spectator)
        try ann.awaitSeq(wat.view!.seq)
        try bob.awaitSeq(wat.view!.seq)
        try playScriptedTurn(ann, bob)
        let lastSeq = bob.view!.seq
        bob.hangUp()  // he comes back with `lastSeq` while the record waits
        let away = try ann.awaitEvent("bob away") { if case .presence(.second, false, _) = $0 { true } else { false } }
        try wat.awaitSeq(away.seq)
        faults.failing = true
        ann.send(.act(.resign, seat: nil))
        #expect(try nothingPending(ann))  // her resign was handled before this ping
        #expect(try nothingPending(wat), "a spectator's next read")
        #expect(try snapshotAnswer(wat) == "journal_failed")
        #expect(try snapshotAnswer(ann) == "journal_failed")
        let back = try TestClient.greeted(server)
        back.send(.join(JoinRequest(name: "bob", match: "m", token: bob.token, lastSeq: lastSeq)))
        let refusal = try back.waitFor("an answer") { if case .error(let error, _) = $0 { error } else { nil } }
        #expect(refusal.code == .journalFailed, "\(refusal)")
        #expect(!back.received.contains { if case .event = $0 { true } else { false } }, "a resume with lastSeq")
        #expect(wat.view?.phase == .playing && ann.view?.phase == .playing)

        faults.failing = false
        server.advance(by: 1_000)
        let over = try wat.awaitEvent("game over") { if case .gameOver = $0 { true } else { false } }
        guard case .gameOver(_, _, let ratings) = over.body else { return }
        #expect(ratings.count == 2)
        #expect(try snapshotAnswer(wat) == "snapshot over ratings 2")
    }

    /// A kill once the game's end is in its journal and its record in the store: a player
    /// resuming with `lastSeq` from the restarted server is sent the `game_over` line it was sent
    /// before, byte for byte, ratings and all.
    @Test func aGameOverResentAfterARestartIsTheLineSentBefore() throws {
        let data = temporaryDirectory()
        var first: TestServer? = try server(data: data)
        let (ann, bob) = try duelAfterOneTurn(first!)
        let lastSeq = bob.view!.seq, token = try #require(bob.token)
        ann.send(.act(.resign, seat: nil))
        _ = try bob.awaitEvent("game over") { if case .gameOver = $0 { true } else { false } }
        let sent = try #require(bob.lastLine)
        #expect(sent.contains("\"ratings\":[{"))
        // The process dies here: what follows is what a kill -9 leaves, the journal live at the top.
        try Self.kill(&first, data: data, clients: (ann, bob))

        let second = try server(data: data)
        defer { second.stop() }
        let back = try TestClient.greeted(second)
        back.send(.join(JoinRequest(name: "bob", match: "m", token: token, lastSeq: lastSeq)))
        _ = try back.awaitEvent("game over again") { if case .gameOver = $0 { true } else { false } }
        #expect(back.lastLine == sent)
    }

    /// A `player_joined` resent after a restart is the line sent before, rating and
    /// `provisional` included: the journal keeps the rating the seat showed (the replay made the
    /// line without it, the accounts being read only after).
    @Test func aPlayerJoinedResentAfterARestartIsTheLineSentBefore() throws {
        let data = temporaryDirectory()
        var first: TestServer? = try server(data: data)
        let (ann, bob) = try duelAfterOneTurn(first!)
        let token = try #require(ann.token)
        // ann's seat taken over from a new connection that saw only her own join: bob's comes again.
        func bobsJoinResent(by server: TestServer) throws -> String? {
            let back = try TestClient.greeted(server)
            back.send(.join(JoinRequest(name: "ann", match: "m", token: token, lastSeq: 1, takeOver: true)))
            _ = try back.awaitEvent("bob's player_joined") { if case .playerJoined(.second, _, _, _) = $0 { true } else { false } }
            return back.lastLine
        }
        let sent = try #require(try bobsJoinResent(by: first!))
        #expect(sent.contains("\"rating\":1500") && sent.contains("\"provisional\":true"))
        try Self.kill(&first, data: data, clients: (ann, bob))

        let second = try server(data: data)
        defer { second.stop() }
        #expect(try bobsJoinResent(by: second) == sent)
    }

    /// A server on `data` and `accounts` where ann resigned her duel with bob (both with keys, one
    /// turn played) while `faults` fails the store: the server, both clients, bob's token and
    /// the last `seq` he saw before the game's end.
    func resignedWhileTheStoreFails(_ data: String, _ accounts: TestAccounts,
                                    _ faults: StoreFaults) throws -> (TestServer, TestClient, TestClient, String, Int) {
        let server = try server(data: data, accounts: accounts, storeFaults: faults)
        let (ann, bob) = try duelAfterOneTurn(server)
        let lastSeq = bob.view!.seq, token = try #require(bob.token)
        faults.failing = true
        ann.send(.act(.resign, seat: nil))
        return (server, ann, bob, token, lastSeq)
    }

    /// A clean stop while a finished game's record waits for the store keeps the match's journal
    /// at the top of the data folder (in finished/ nothing would write the record): the restart
    /// writes the record from it, and bob, resuming, is told the game over with both ratings.
    @Test(arguments: TestStoreKind.allCases) func aCleanStopKeepsTheJournalOfAGameWhoseRecordWaits(kind: TestStoreKind) throws {
        guard let accounts = try TestAccounts.make(kind) else { return }
        let (data, faults) = (temporaryDirectory(), StoreFaults())
        let (running, ann, bob, token, lastSeq) = try resignedWhileTheStoreFails(data, accounts, faults)
        var first: TestServer? = running
        _ = try bob.awaitError(.journalFailed)
        withExtendedLifetime((ann, bob)) { first?.stop() }
        first = nil
        #expect(FileManager.default.fileExists(atPath: data + "/m.jsonl"), "the journal went to finished/")

        let second = try server(data: data, accounts: accounts)
        defer { second.stop() }
        #expect(second.logLines.all.contains { $0.contains("recorded m game 1") }, "\(second.logLines.all)")
        #expect(try accounts.games(data: data) == [true])
        let back = try TestClient.greeted(second)
        back.send(.join(JoinRequest(name: "bob", match: "m", token: token, lastSeq: lastSeq)))
        let over = try back.awaitEvent("game over") { if case .gameOver = $0 { true } else { false } }
        guard case .gameOver(_, _, let ratings) = over.body else { return }
        #expect(ratings.count == 2)
    }

    /// A kill while the record could not be committed, and a restart while it still cannot be:
    /// the restored match tells nothing of the game over (a spectator's join is refused) until
    /// the store takes the record; then a resume with `lastSeq` gets the game over with its ratings.
    @Test(arguments: TestStoreKind.allCases) func aRestoredGameOverWaitsForTheRecordTheRestartCouldNotCommit(kind: TestStoreKind) throws {
        guard let accounts = try TestAccounts.make(kind) else { return }
        let (data, faults) = (temporaryDirectory(), StoreFaults())
        let (running, ann, bob, token, lastSeq) = try resignedWhileTheStoreFails(data, accounts, faults)
        var first: TestServer? = running
        #expect(try nothingPending(ann))
        try Self.kill(&first, data: data, clients: (ann, bob))

        let second = try server(data: data, accounts: accounts, storeFaults: faults)
        defer { second.stop() }
        let wat = try TestClient.greeted(second)
        wat.send(.join(JoinRequest(role: .spectator, name: "wat", match: "m")))
        let refusal = try wat.waitFor("an answer") { message -> String? in
            switch message {
            case .snapshot(let view): "snapshot \(view.phase)"
            case .error(let error, _): error.code.rawValue
            default: nil
            }
        }
        #expect(refusal == "journal_failed")
        faults.failing = false
        second.advance(by: 1_000)
        // The record is tried again off the loop: a resume is refused until it is committed.
        var back = try TestClient.greeted(second)
        for _ in 0..<1_000 {
            back.send(.join(JoinRequest(name: "bob", match: "m", token: token, lastSeq: lastSeq)))
            let answer = try back.waitFor("an answer") { message -> ErrorCode?? in
                switch message {
                case .joined: .some(nil)
                case .error(let error, _): .some(error.code)
                default: nil
                }
            }
            guard answer == .journalFailed else { break }
            back = try TestClient.greeted(second)
        }
        let over = try back.awaitEvent("game over") { if case .gameOver = $0 { true } else { false } }
        guard case .gameOver(_, _, let ratings) = over.body else { return }
        #expect(ratings.count == 2)
    }
}
