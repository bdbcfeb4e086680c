import SetServer
import SetTestSupport
import SetWire
import Testing

/// Issue 44: an arena's state survives a store that goes away (a PostgreSQL restart, a full
/// disk): a duel's end the store does not take is written again until it is, so the game is
/// neither lost nor left under way for good, and it counts once; a deal the store does not take
/// is tried again on the server's clock, so its players are not left waiting for some other change.
@Suite(.serialized) struct ArenaStoreOutageTests {
    typealias Room = ArenaRoomTests
    typealias Restart = ArenaRestartTests

    @Test(arguments: TestStoreKind.allCases) func anEndTheStoreDidNotTakeIsWrittenOnceItCan(kind: TestStoreKind) throws {
        guard let accounts = try TestAccounts.make(kind) else { return }
        let faults = StoreFaults()
        let server = try Restart.server(temporaryFolder("setgame-arena-outage"), accounts, faults: faults)
        defer { server.stop() }
        let (ann, _, bob, _) = try Restart.dealt(server, "outage")
        faults.failing = true
        // Nobody sits: the seat wait ends while the store takes no change.
        server.advance(by: Restart.seatWaitMs)
        let stuck = try Restart.watched(server, "outage", "the duel still under way") { _ in true }
        #expect(Room.entry(stuck, "ann")?.games == 0 && stuck.boards.map(\.match) == ["arena-outage-1"], "not counted while unwritten")

        faults.failing = false
        server.advance(by: 2_000)
        let counted = try Room.pushed(ann, "the no-show counted") { Room.entry($0, "ann")?.games == 1 }
        #expect(Room.entry(counted, "bob")?.games == 1 && !counted.boards.map(\.match).contains("arena-outage-1"))
        let stored = try Restart.results(server, "outage")
        #expect(stored.standings.map(\.games) == [1, 1], "written once, counted once")
        withExtendedLifetime(bob) {}
    }

    /// The store refuses bob's first duel with ann; once it is back, the two are paired by the
    /// server's clock alone (nobody else joins, nothing else ends), each told their `arena_pairing`.
    @Test(arguments: TestStoreKind.allCases) func aDealTheStoreRefusedIsTriedAgainOnTheClock(kind: TestStoreKind) throws {
        guard let accounts = try TestAccounts.make(kind) else { return }
        let faults = StoreFaults()
        let server = try Restart.server(temporaryFolder("setgame-arena-deal-retry"), accounts, faults: faults)
        defer { server.stop() }
        try Room.create(server, "redeal")
        let (ann, _) = try Room.joined(server, "redeal", "ann")
        faults.failing = true
        let (bob, _) = try Room.joined(server, "redeal", "bob")
        let refused = polled({ server.logLines.all }, until: { $0.contains { $0.contains("arena-redeal-1 was not written") } })
        #expect(refused.contains { $0.contains("arena-redeal-1 was not written") }, "the store took the deal it should have refused")

        faults.failing = false
        server.advance(by: Server.storeRetryMs)
        let anns = try Room.pairing(ann), bobs = try Room.pairing(bob)
        #expect(anns.opponent == "bob" && bobs.opponent == "ann" && anns.match == bobs.match && anns.match != "arena-redeal-1")
        let shown = try Room.pushed(ann, "the duel on the board") { !$0.boards.isEmpty }
        #expect(shown.boards.map(\.match) == [anns.match])
    }
}
