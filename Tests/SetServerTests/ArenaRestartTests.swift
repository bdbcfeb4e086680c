import Foundation
import SetRules
@testable import SetServer
import SetTestSupport
import SetWire
import Testing

/// Issue 44: an arena's dealt duels survive its node's restart, over real sockets, on the same
/// data folder and store (the SQLite file of the data folder, and PostgreSQL). A duel under way
/// resumes from its match journal and counts once; a duel told and not sat in keeps both seats
/// for a seat wait from the restart, then is forfeited; its players stay `playing` meanwhile and
/// are paired with nobody else.
@Suite(.serialized) struct ArenaRestartTests {
    typealias Room = ArenaRoomTests
    typealias Asked = ArenaRequestTests

    static let seatWaitMs: Int64 = 30_000

    static func server(_ data: String, _ accounts: TestAccounts, faults: StoreFaults? = nil) throws -> TestServer {
        try TestServer {
            $0.dataDirectory = data
            $0.store = accounts.store
            $0.storeFaults = faults
            $0.limits.seatWaitMs = Self.seatWaitMs
        }
    }

    /// ann and bob joined to the running arena `arena` and told their first duel.
    static func dealt(_ server: TestServer, _ arena: String) throws -> (TestClient, ArenaPairingNotice, TestClient, ArenaPairingNotice) {
        try Room.create(server, arena)
        let (ann, _) = try Room.joined(server, arena, "ann")
        let (bob, _) = try Room.joined(server, arena, "bob")
        return (ann, try Room.pairing(ann), bob, try Room.pairing(bob))
    }

    /// ann and bob, two guests, joined to the running arena `arena` and seated in its first duel.
    static func seated(_ server: TestServer, _ arena: String) throws -> (TestClient, ArenaPairingNotice, TestClient, ArenaPairingNotice) {
        let (ann, anns, bob, bobs) = try dealt(server, arena)
        _ = try ArenaDuelTests.sit(ann, "ann", in: anns)
        _ = try ArenaDuelTests.sit(bob, "bob", in: bobs)
        return (ann, anns, bob, bobs)
    }

    /// How a test's first node goes down: a clean stop, or as `kill -9` leaves its data folder
    /// (`AccountTests.kill`: the first duel's journal live at the top, though it is over).
    enum Stop { case clean, kill }

    /// A node on `data` and `accounts` with ann and bob seated in `arena`'s first duel (`seat`:
    /// guests or accounts), `before` done on it, then stopped (`stop`), `meanwhile` done, and
    /// started again on the same data folder and store: the node again, and both pairings.
    static func restarted(_ data: String, _ accounts: TestAccounts, _ arena: String, faults: StoreFaults,
                          seat: (TestServer, String) throws -> (TestClient, ArenaPairingNotice, TestClient, ArenaPairingNotice) = seated,
                          stop: Stop = .clean, before: (TestServer, TestClient, TestClient) throws -> Void = { _, _, _ in },
                          meanwhile: () -> Void = {}) throws -> (TestServer, ArenaPairingNotice, ArenaPairingNotice) {
        var first: TestServer? = try server(data, accounts, faults: faults)
        let (ann, anns, bob, bobs) = try seat(first!, arena)
        try before(first!, ann, bob)
        switch stop {
        case .clean:
            withExtendedLifetime((ann, bob)) { first?.stop() }
            first = nil
        case .kill: try AccountTests.kill(&first, data: data, match: anns.match, clients: (ann, bob))
        }
        meanwhile()
        return (try server(data, accounts, faults: faults), anns, bobs)
    }

    /// The arena's state as a watcher joining it now sees it, or the first push that satisfies `wanted`.
    static func watched(_ server: TestServer, _ arena: String, _ what: String, _ wanted: @escaping (ArenaView) -> Bool) throws -> ArenaView {
        let (watcher, first) = try Room.joined(server, arena, "w\(UUID().uuidString.prefix(6))", watch: true)
        return wanted(first) ? first : try Room.pushed(watcher, what, wanted)
    }

    /// The arena's standings as the store holds them (`arena_results`, recounted from its games).
    static func results(_ server: TestServer, _ arena: String) throws -> ArenaResults {
        guard case .arenaResults(let results, _) = try Asked.answer(try Asked.client(server), .results(arena: arena), id: "r") else {
            throw ClientTimedOut(waitingFor: "\(arena)'s results")
        }
        return results
    }

    /// ann resigns the first duel of `arena`, in which she and bob sit, while `faults` loses
    /// arena ends: its game over is told (so its record is committed) and its end in the arena is
    /// not written, as on a node killed between the two.
    static func annResignsAndTheEndIsLost(_ server: TestServer, _ arena: String, _ ann: TestClient, _ bob: TestClient,
                                          faults: StoreFaults) throws {
        faults.losingArenaEnds = true
        ann.send(.act(.resign, seat: nil))
        _ = try bob.awaitEvent("the duel over") { if case .gameOver = $0 { true } else { false } }
        let lost = "arena \(arena): game 1's end was not written"
        for _ in 0..<400 where !server.logLines.all.contains(where: { $0.contains(lost) }) { Thread.sleep(forTimeInterval: 0.05) }
        #expect(server.logLines.all.contains { $0.contains(lost) })
    }

    /// A duel both players sat in before the restart resumes from its journal: its players take
    /// their seats back with their tokens, and its end counts, once, though nobody joined the
    /// arena after the restart before it ended.
    @Test(arguments: TestStoreKind.allCases) func aDuelUnderWayResumesAndCountsOnce(kind: TestStoreKind) throws {
        guard let accounts = try TestAccounts.make(kind) else { return }
        let data = temporaryFolder("setgame-arena-restart")
        var first: TestServer? = try Self.server(data, accounts)
        let (ann, anns, bob, bobs) = try Self.dealt(first!, "monday")
        _ = try ArenaDuelTests.sit(ann, "ann", in: anns)
        let seated = try ArenaDuelTests.sit(bob, "bob", in: bobs)
        #expect(seated.phase == .playing)
        withExtendedLifetime((ann, bob)) { first?.stop() }
        first = nil

        let second = try Self.server(data, accounts)
        defer { second.stop() }
        #expect(second.restoredMatches == [anns.match])
        let annBack = try TestClient(port: second.port), bobBack = try TestClient(port: second.port)
        annBack.send(.join(JoinRequest(name: "ann", match: anns.match, token: anns.token)))
        bobBack.send(.join(JoinRequest(name: "bob", match: bobs.match, token: bobs.token)))
        _ = try annBack.waitFor("ann's seat back") { if case .snapshot = $0 { true } else { nil } }
        _ = try bobBack.waitFor("bob's seat back") { if case .snapshot = $0 { true } else { nil } }
        annBack.send(.act(.resign, seat: nil))
        _ = try bobBack.awaitEvent("the duel over") { if case .gameOver = $0 { true } else { false } }

        let counted = try Self.watched(second, "monday", "the duel counted") { Room.entry($0, "bob")?.games == 1 }
        // Out of the first duel (then paused: their arena connections went with the restart).
        #expect(Room.entry(counted, "bob")?.score == 2 && Room.entry(counted, "ann")?.games == 1 && !counted.boards.map(\.match).contains(anns.match))
        #expect(Room.entry(counted, "ann")?.playing != anns.match && Room.entry(counted, "bob")?.playing != anns.match)
        let stored = try Self.results(second, "monday")
        #expect(stored.standings.map(\.name) == ["bob", "ann"] && stored.standings.map(\.games) == [1, 1] && stored.standings[0].score == 2)
    }

    /// A duel told and not sat in when the node went down: both are `playing` it after the
    /// restart and paired with nobody else; its seats wait a whole seat wait from the restart
    /// (each token seats its player), and a duel nobody sits in is lost by both, counted once.
    /// Its seats come from the store alone: this server keeps no data folder.
    @Test(arguments: TestStoreKind.allCases) func aDuelToldAndNotSatInKeepsItsSeatsThroughTheRestart(kind: TestStoreKind) throws {
        guard let accounts = try TestAccounts.make(kind) else { return }
        let file = temporaryFolder("setgame-arena-restart") + "/accounts.sqlite3"
        func server() throws -> TestServer {
            try TestServer {
                $0.store = accounts.store ?? .sqliteFile(file)
                $0.limits.seatWaitMs = Self.seatWaitMs
            }
        }
        var first: TestServer? = try server()
        let (ann, anns, bob, _) = try Self.dealt(first!, "tuesday")
        #expect(anns.match == "arena-tuesday-1")
        // Two thirds of its seat wait pass before the node goes down.
        first!.advance(by: 20_000)
        withExtendedLifetime((ann, bob)) { first?.stop() }
        first = nil

        let second = try server()
        defer { second.stop() }
        // Two newcomers are paired with each other: ann and bob still play their duel.
        let (cat, atStart) = try Room.joined(second, "tuesday", "cat")
        #expect(Room.entry(atStart, "ann")?.playing == anns.match && Room.entry(atStart, "bob")?.playing == anns.match)
        #expect(atStart.boards.map(\.match) == [anns.match])
        let (dan, _) = try Room.joined(second, "tuesday", "dan")
        let cats = try Room.pairing(cat)
        #expect(cats.opponent == "dan" && cats.match == "arena-tuesday-2")
        withExtendedLifetime(dan) {}

        // Most of a seat wait after the restart (past the wait counted from the deal) ann's token
        // still seats her: the wait counts from the restart.
        second.advance(by: Self.seatWaitMs - 1_000)
        let annBack = try TestClient(port: second.port)
        annBack.send(.join(JoinRequest(name: "ann", match: anns.match, token: anns.token)))
        _ = try annBack.waitFor("ann's seat after the restart") { message in
            if case .error(let error, _) = message { Issue.record("ann refused: \(error.code)") }
            if case .snapshot = message { return true } else { return nil }
        }

        // The second duel nobody sat in ends with the seat wait: lost by both, counted once.
        second.advance(by: Self.seatWaitMs)
        let forfeited = try Room.pushed(cat, "the second duel forfeited") { Room.entry($0, "cat")?.games == 1 }
        #expect(Room.entry(forfeited, "dan")?.games == 1 && Room.entry(forfeited, "cat")?.score == 0)
        let stored = try Self.results(second, "tuesday")
        #expect(stored.standings.first { $0.name == "cat" }?.games == 1)
    }

    /// A duel dealt before the restart that nobody comes back to is forfeited by both once the
    /// seat wait from the restart has passed, and both are free again.
    @Test(arguments: TestStoreKind.allCases) func aDuelNobodyComesBackToIsLostByBothAfterTheRestart(kind: TestStoreKind) throws {
        guard let accounts = try TestAccounts.make(kind) else { return }
        let data = temporaryFolder("setgame-arena-restart")
        var first: TestServer? = try Self.server(data, accounts)
        let (ann, _, bob, _) = try Self.dealt(first!, "wednesday")
        withExtendedLifetime((ann, bob)) { first?.stop() }
        first = nil

        let second = try Self.server(data, accounts)
        defer { second.stop() }
        let (watcher, before) = try Room.joined(second, "wednesday", "wat", watch: true)
        #expect(before.boards.map(\.match) == ["arena-wednesday-1"])
        second.advance(by: Self.seatWaitMs)
        let lost = try Room.pushed(watcher, "the no-show counted") { Room.entry($0, "ann")?.games == 1 }
        // Free again (and paired again: one no-show does not pause), no longer in the first duel.
        #expect(!lost.boards.map(\.match).contains("arena-wednesday-1"))
        #expect(lost.standings.allSatisfy { $0.games == 1 && $0.score == 0 && $0.playing != "arena-wednesday-1" })
        #expect(try Self.results(second, "wednesday").standings.map(\.games) == [1, 1])
    }

    /// Two guests' duel whose end its node did not write before it stopped (the game over was
    /// told): the restarted node counts it as it ended, ann's resignation a loss, from the record
    /// an arena's duel keeps even between guests; not a duel to sit in again, nor a double no-show.
    @Test(arguments: TestStoreKind.allCases) func aGuestsDuelThatEndedBeforeTheStopCountsAsItEnded(kind: TestStoreKind) throws {
        guard let accounts = try TestAccounts.make(kind) else { return }
        let faults = StoreFaults()
        let (second, _, _) = try Self.restarted(temporaryFolder("setgame-arena-guests"), accounts, "sunday", faults: faults, before: { first, ann, bob in
            try Self.annResignsAndTheEndIsLost(first, "sunday", ann, bob, faults: faults)
        }, meanwhile: { faults.losingArenaEnds = false })
        defer { second.stop() }
        try Self.expectBobsWinCounted(second, "sunday")
    }

    /// How a node whose duel's record waits for the store goes down, and the store at its restart.
    enum Going: CaseIterable { case killed, killedStoreStillFailing, stoppedCleanly }

    /// Two guests' duel that ended while the store could not take its record, on a node killed
    /// (or stopped) then: its journal says it ended; the store has neither its record nor its end
    /// in the arena, and nobody was told its game over. The restarted node writes its record from
    /// the journal, as it does an account's game (an arena's duel of guests is kept), and the arena
    /// counts it from that record as the live arena would have: ann's resignation a loss, bob's
    /// win 2. A store still failing at the restart takes the record when it can; the duel counts then.
    @Test(arguments: TestStoreKind.allCases, Going.allCases)
    func aGuestsDuelWhoseRecordTheStopLostCountsAsItEnded(kind: TestStoreKind, going: Going) throws {
        guard let accounts = try TestAccounts.make(kind) else { return }
        let faults = StoreFaults()
        let (second, _, _) = try Self.restarted(temporaryFolder("setgame-arena-unrecorded"), accounts, "holiday", faults: faults,
                                                stop: going == .stoppedCleanly ? .clean : .kill, before: { _, ann, bob in
            faults.failing = true
            ann.send(.act(.resign, seat: nil))
            // The store refused the record: bob is told his result waits, and no game over.
            _ = try bob.awaitError(.journalFailed)
            #expect(try nothingPending(bob))
        }, meanwhile: { faults.failing = going == .killedStoreStillFailing })
        defer { second.stop() }
        var recorded = "recorded arena-holiday-1 game 1"
        if going == .killedStoreStillFailing {
            // Its first try at the start failed; the next one, due on the server's clock, is taken.
            let waits = { (line: String) in line.contains("cannot write the record of arena-holiday-1 game 1 (") && line.contains("trying again") }
            for _ in 0..<400 where !second.logLines.all.contains(where: waits) { Thread.sleep(forTimeInterval: 0.05) }
            #expect(second.logLines.all.contains(where: waits), "\(second.logLines.all)")
            faults.failing = false
            second.advance(by: 1_000)
            recorded = "wrote the record of arena-holiday-1 game 1 after"
        }
        try Self.expectBobsWinCounted(second, "holiday")
        #expect(second.logLines.all.contains { $0.contains(recorded) }, "\(second.logLines.all)")
    }

    /// The first duel of `arena` counted on `server` as ann's resignation: bob 2, ann 0, no board
    /// left, and the store's standings alike.
    static func expectBobsWinCounted(_ server: TestServer, _ arena: String) throws {
        let counted = try watched(server, arena, "the duel counted") { Room.entry($0, "bob")?.games == 1 }
        #expect(Room.entry(counted, "bob")?.score == 2 && Room.entry(counted, "ann")?.score == 0 && counted.boards.isEmpty)
        #expect(try results(server, arena).standings.map(\.score) == [2, 0])
    }

    /// A join's answer never shows a duel before it is stored: while the store cannot take the
    /// deal, bob's answer shows no board (the deal is undone, and nobody is told of it).
    @Test func aJoinsAnswerShowsNoDuelTheStoreHasNotTaken() throws {
        guard let accounts = try TestAccounts.make(.sqlite) else { return }
        let faults = StoreFaults()
        let server = try Self.server(temporaryFolder("setgame-arena-answer"), accounts, faults: faults)
        defer { server.stop() }
        try Room.create(server, "thursday")
        let (ann, _) = try Room.joined(server, "thursday", "ann")
        faults.failing = true
        let (bob, answer) = try Room.joined(server, "thursday", "bob")
        #expect(answer.boards.isEmpty, "the answer showed \(answer.boards.map(\.match)) before it was stored")
        #expect(answer.standings.allSatisfy { $0.playing == nil })
        withExtendedLifetime((ann, bob)) {}
    }

    /// Players whose arena connections went with the restart are paused until they join again,
    /// as a closed connection pauses, so nobody who is not back is paired into a no-show.
    @Test(arguments: TestStoreKind.allCases) func itsPlayersArePausedUntilTheyJoinAgain(kind: TestStoreKind) throws {
        guard let accounts = try TestAccounts.make(kind) else { return }
        let data = temporaryFolder("setgame-arena-away")
        var first: TestServer? = try Self.server(data, accounts)
        try Room.create(first!, "friday", startsInS: 60)
        let (ann, _) = try Room.joined(first!, "friday", "ann")
        let (bob, _) = try Room.joined(first!, "friday", "bob")
        withExtendedLifetime((ann, bob)) { first?.stop() }
        first = nil

        let second = try Self.server(data, accounts)
        defer { second.stop() }
        let held = try Self.watched(second, "friday", "the arena held again") { _ in true }
        #expect(Room.entry(held, "ann")?.paused == true && Room.entry(held, "bob")?.paused == true)
        let (annBack, _) = try Room.joined(second, "friday", "ann")
        let (bobBack, back) = try Room.joined(second, "friday", "bob")
        #expect(Room.entry(back, "ann")?.paused == false && Room.entry(back, "bob")?.paused == false)
        second.advance(by: 60_000)
        #expect(try Room.pairing(annBack).opponent == "bob" && Room.pairing(bobBack).opponent == "ann")
    }
}

/// On nodes: the arena's node, restarted on its data folder, holds the arena again by itself
/// (its placement names it) with the duel it had dealt, which nobody sits in and is forfeited
/// a seat wait after the restart, though nobody joined the arena again.
@Suite(.serialized) struct ArenaNodeRestartTests {
    @Test func anArenasNodeRestartedHoldsItsDealtDuelsAgain() throws {
        guard let database = try TestDatabase.make(.postgres) else { return }
        let names = ["a", "b", "c"], home = try #require(Rendezvous.home(of: "~arena-sunday", among: names))
        let data = temporaryFolder("setgame-arena-node")
        let nodes = try names.map { try LobbyNodeTests.node($0, database, data: $0 == home ? data : nil) }
        let arenaNode = nodes[names.firstIndex(of: home)!], other = try #require(nodes.first { $0 !== arenaNode })
        guard case .arena = try ArenaRequestTests.answer(try ArenaRequestTests.client(other), .create(ArenaCreation(arena: "sunday", minutes: 10)),
                                                          id: "c") else {
            Issue.record("not created")
            return
        }
        let (ann, _, _) = try ArenaNodeTests.join("sunday", "ann", through: other, nodes: nodes)
        let (bob, _, _) = try ArenaNodeTests.join("sunday", "bob", through: other, nodes: nodes)
        #expect(try ArenaRoomTests.pairing(ann).match == "arena-sunday-1")
        withExtendedLifetime((ann, bob)) { arenaNode.stop() }

        let again = try LobbyNodeTests.node(home, database, data: data)
        let live = nodes.filter { $0 !== arenaNode } + [again]
        defer { live.forEach { $0.stop() } }
        for _ in 0..<400 where !again.logLines.all.contains(where: { $0.contains("arena sunday is held here with 1 duels dealt") }) {
            Thread.sleep(forTimeInterval: 0.05)
        }
        again.advance(by: ServerLimits().seatWaitMs)
        var games: [Int] = []
        for _ in 0..<400 where games != [1, 1] {
            games = try ArenaRestartTests.results(other, "sunday").standings.map(\.games)
            if games != [1, 1] { Thread.sleep(forTimeInterval: 0.05) }
        }
        #expect(games == [1, 1], "the duel dealt before the restart was forfeited by both, counted once")
    }

}
