import Foundation
import SetRules
@testable import SetServer
import SetTestSupport
import SetWire
import Testing

/// Issue 44: an arena's duels through its node's restart, over real sockets, on the SQLite file
/// and on PostgreSQL: a casual arena's duel is still unrated after it (its seats come back from
/// the store alone, no data folder, reserved unrated as the arena is casual), and a duel one
/// player sat in before it, and sits in again after it, is the other's no-show a seat wait later.
@Suite(.serialized) struct ArenaRestartAccountTests {
    typealias Room = ArenaRoomTests
    typealias Asked = ArenaRequestTests

    @Test(arguments: TestStoreKind.allCases) func aCasualArenasDuelDealtBeforeARestartStaysUnrated(kind: TestStoreKind) throws {
        guard let accounts = try TestAccounts.make(kind) else { return }
        let file = temporaryFolder("setgame-arena-casual") + "/accounts.sqlite3"
        func server() throws -> TestServer { try TestServer { $0.store = accounts.store ?? .sqliteFile(file) } }
        var first: TestServer? = try server()
        let made = try Asked.answer(try Asked.client(first!), .create(ArenaCreation(arena: "casual", minutes: 10, rated: false)), id: "c")
        guard case .arena = made else { throw ClientTimedOut(waitingFor: "the casual arena, got \(made)") }
        let ann = try ArenaAccountTests.joined(first!, "casual", "ann", key: AccountTests.annKey)
        let bob = try ArenaAccountTests.joined(first!, "casual", "bob", key: AccountTests.bobKey)
        let anns = try Room.pairing(ann), bobs = try Room.pairing(bob)
        withExtendedLifetime((ann, bob)) { first?.stop() }
        first = nil

        let second = try server()
        defer { second.stop() }
        // Held again, its duel's seats reserved from the store.
        _ = try ArenaRestartTests.watched(second, "casual", "the dealt duel") { $0.boards.map(\.match) == [anns.match] }
        let annBack = try TestClient.greeted(port: second.port), bobBack = try TestClient.greeted(port: second.port)
        #expect(try ArenaAccountTests.playAnnResigns(annBack, in: anns, bobBack, in: bobs).isEmpty, "still unrated after the restart")
        let counted = try ArenaRestartTests.watched(second, "casual", "bob's win counted") { Room.entry($0, "bob")?.score == 2 }
        #expect(Room.entry(counted, "ann")?.games == 1)
    }

    @Test(arguments: TestStoreKind.allCases) func aDuelOneSatInBeforeARestartIsTheOthersNoShowAfterIt(kind: TestStoreKind) throws {
        guard let accounts = try TestAccounts.make(kind) else { return }
        let data = temporaryFolder("setgame-arena-oneseat")
        var first: TestServer? = try ArenaRestartTests.server(data, accounts)
        let (ann, anns, bob, _) = try ArenaRestartTests.dealt(first!, "wednesday")
        _ = try ArenaDuelTests.sit(ann, "ann", in: anns)
        withExtendedLifetime((ann, bob)) { first?.stop() }
        first = nil

        let second = try ArenaRestartTests.server(data, accounts)
        defer { second.stop() }
        // A duel still waiting for its second player keeps no journal through a stop: ann sits
        // again with her token (its seat reserved by the data folder's file, or from the store,
        // whichever comes first), and waits for bob.
        let annBack = try TestClient.greeted(port: second.port)
        annBack.send(.join(JoinRequest(name: "ann", match: anns.match, token: anns.token)))
        _ = try annBack.waitFor("ann's seat back") { if case .snapshot = $0 { true } else { nil } }
        _ = try ArenaRestartTests.watched(second, "wednesday", "the dealt duel") { $0.boards.map(\.match) == [anns.match] }
        second.advance(by: ArenaRestartTests.seatWaitMs)
        let counted = try ArenaRestartTests.watched(second, "wednesday", "bob's no-show") { Room.entry($0, "bob")?.games == 1 }
        #expect(Room.entry(counted, "ann")?.score == 2 && Room.entry(counted, "bob")?.score == 0, "the one who came wins")
    }

    /// ann and bob, two accounts, joined to the running arena `arena` and seated in its first duel.
    static func seated(_ server: TestServer, _ arena: String) throws -> (TestClient, ArenaPairingNotice, TestClient, ArenaPairingNotice) {
        try Room.create(server, arena)
        let ann = try ArenaAccountTests.joined(server, arena, "ann", key: AccountTests.annKey)
        let bob = try ArenaAccountTests.joined(server, arena, "bob", key: AccountTests.bobKey)
        let anns = try Room.pairing(ann), bobs = try Room.pairing(bob)
        try ArenaAccountTests.sit(ann, "ann", key: AccountTests.annKey, in: anns)
        try ArenaAccountTests.sit(bob, "bob", key: AccountTests.bobKey, in: bobs)
        return (ann, anns, bob, bobs)
    }

    /// A duel that ends in the moment after a restart before its arena is held again counts as
    /// its match ended it: ann resigns before any set, so bob wins, though the store's record of
    /// that game (an aborted one) names no winner and was committed before the arena was read.
    /// The list of arenas to hold again is kept waiting until the resignation's record is on
    /// its way to the store.
    @Test(arguments: TestStoreKind.allCases) func aDuelEndingBeforeItsArenaIsHeldAgainCountsAsItsMatchEndedIt(kind: TestStoreKind) throws {
        guard let accounts = try TestAccounts.make(kind) else { return }
        let faults = StoreFaults()
        defer { faults.arenaList.release() }
        let (second, anns, bobs) = try ArenaRestartTests.restarted(temporaryFolder("setgame-arena-early-end"), accounts, "thursday",
                                                                   faults: faults, seat: Self.seated, meanwhile: faults.arenaList.hold)
        defer { second.stop() }
        let annBack = try TestClient.greeted(port: second.port), bobBack = try TestClient.greeted(port: second.port)
        try ArenaAccountTests.sit(annBack, "ann", key: AccountTests.annKey, in: anns)
        try ArenaAccountTests.sit(bobBack, "bob", key: AccountTests.bobKey, in: bobs)
        annBack.send(.act(.resign, seat: nil), id: "resign")
        // Acknowledged in the turn the game ended: its record is queued behind the list.
        _ = try annBack.waitFor("the resignation's ack") { if case .ack("resign", _) = $0 { true } else { nil } }
        faults.arenaList.release()
        _ = try bobBack.awaitEvent("the duel over") { if case .gameOver = $0 { true } else { false } }

        let counted = try ArenaRestartTests.watched(second, "thursday", "the duel counted") { Room.entry($0, "bob")?.games == 1 }
        #expect(Room.entry(counted, "bob")?.score == 2 && Room.entry(counted, "ann")?.score == 0, "a resignation loses")
        let stored = try ArenaRestartTests.results(second, "thursday")
        #expect(stored.standings.map(\.name) == ["bob", "ann"] && stored.standings.map(\.score) == [2, 0])
    }

    /// A node killed after a duel's record committed and before its arena wrote the duel's end:
    /// ann resigned before any set (an aborted game, with no winner, in the store), and the
    /// restarted node recounts the duel from that record as the live arena counted it: bob wins
    /// 2, ann 0, not a draw of 1 each.
    @Test(arguments: TestStoreKind.allCases) func aResignationBeforeAnySetRecountedAfterARestartStillLoses(kind: TestStoreKind) throws {
        guard let accounts = try TestAccounts.make(kind) else { return }
        let faults = StoreFaults()
        let (second, _, _) = try ArenaRestartTests.restarted(temporaryFolder("setgame-arena-recount"), accounts, "saturday", faults: faults,
                                                             seat: Self.seated, before: { first, ann, bob in
            try ArenaRestartTests.annResignsAndTheEndIsLost(first, "saturday", ann, bob, faults: faults)
        }, meanwhile: { faults.losingArenaEnds = false })
        defer { second.stop() }
        let counted = try ArenaRestartTests.watched(second, "saturday", "the duel recounted") { Room.entry($0, "bob")?.games == 1 }
        #expect(Room.entry(counted, "bob")?.score == 2 && Room.entry(counted, "ann")?.score == 0, "a resignation before any set loses")
        let stored = try ArenaRestartTests.results(second, "saturday")
        #expect(stored.standings.map(\.name) == ["bob", "ann"] && stored.standings.map(\.score) == [2, 0])
    }
}
