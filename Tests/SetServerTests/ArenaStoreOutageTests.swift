import SetServer
import SetTestSupport
import SetWire
import Testing

/// Issue 44: an arena's state survives a store that goes away (a PostgreSQL restart, a full
/// disk): a duel's end the store does not take is written again until it is, so the game is
/// neither lost nor left under way for good, and it counts once.
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
}
