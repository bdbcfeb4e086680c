import SetRules
import SetServer
import SetTestSupport
import SetWire
import Testing

/// Issue 44: an arena player plays each duel on their arena connection, over real sockets: it
/// joins the duel with the pairing's token, hears the arena's pushes while it plays, is back
/// between duels after the duel's `game_over` (the next pairing's `join` on the same connection
/// is taken), and closing it in a duel pauses the player once the duel ends.
@Suite struct ArenaDuelTests {
    typealias Room = ArenaRoomTests

    /// Sits `client` in the duel `notice` names, on the same connection; returns its snapshot.
    static func sit(_ client: TestClient, _ name: String, in notice: ArenaPairingNotice) throws -> MatchView {
        client.send(.join(JoinRequest(name: name, match: notice.match, token: notice.token)))
        return try client.waitFor("\(name)'s seat in \(notice.match)") { message in
            if case .error(let error, _) = message { Issue.record("\(name) refused: \(error.code)") }
            if case .snapshot(let view) = message { return view } else { return nil }
        }
    }

    /// ann and bob joined to `arena`, which then starts, each sat in the first duel on their
    /// arena connection; bob's snapshot of it.
    static func firstDuel(_ server: TestServer, _ arena: String) throws -> (ann: TestClient, bob: TestClient, MatchView) {
        try Room.create(server, arena, minutes: 10, startsInS: 60)
        let (ann, _) = try Room.joined(server, arena, "ann")
        let (bob, _) = try Room.joined(server, arena, "bob")
        server.advance(by: 60_000)
        let anns = try Room.pairing(ann), bobs = try Room.pairing(bob)
        _ = try Self.sit(ann, "ann", in: anns)
        return (ann, bob, try Self.sit(bob, "bob", in: bobs))
    }

    @Test func eachDuelIsPlayedOnTheArenaConnection() throws {
        let server = try TestServer()
        defer { server.stop() }
        let (ann, bob, seated) = try Self.firstDuel(server, "thursday")
        #expect(seated.phase == .playing && seated.match == "arena-thursday-1")

        // While they play, the arena's changes reach the players' connections.
        let (cat, _) = try Room.joined(server, "thursday", "cat")
        let heard = try Room.pushed(ann, "cat's arrival during the duel") { $0.standings.count == 3 }
        #expect(heard.boards.map(\.match) == ["arena-thursday-1"])
        cat.hangUp()
        _ = try Room.pushed(bob, "cat paused") { Room.entry($0, "cat")?.paused == true }

        ann.send(.act(.resign, seat: nil))
        _ = try ann.awaitEvent("ann's game over") { if case .gameOver = $0 { true } else { false } }
        // Back between duels, without a new `arena_join`: paired again, and the join is taken.
        let second = try Room.pairing(ann), bobsSecond = try Room.pairing(bob)
        #expect(second.match == "arena-thursday-2" && second.opponent == "bob")
        let counted = try Room.pushed(ann, "the first duel counted") { Room.entry($0, "bob")?.score == 2 }
        #expect(Room.entry(counted, "ann")?.paused == false)
        let again = try Self.sit(ann, "ann", in: second)
        #expect(again.match == "arena-thursday-2")
        #expect(try Self.sit(bob, "bob", in: bobsSecond).phase == .playing)

        // Still the arena's member: closing the connection in the duel pauses ann, taking hold
        // when the duel ends (as any pause asked during a duel), so nobody is paired again.
        ann.hangUp()
        // Bob resigns once the server has read ann's hang-up (he hears her away): read in one
        // batch, his resign could end the duel and pair them again before her close paused her.
        _ = try bob.awaitEvent("ann away") { if case .presence(_, false, _) = $0 { true } else { false } }
        bob.send(.act(.resign, seat: nil))
        let paused = try Room.pushed(bob, "ann paused") { Room.entry($0, "ann")?.paused == true }
        #expect(Room.entry(paused, "ann")?.games == 2 && Room.entry(paused, "ann")?.score == 2 && paused.boards.isEmpty)
    }

    /// A connection in a duel that is not over, or joined to no arena, may not join another.
    @Test func aDuelUnderWayOrOutsideAnArenaKeepsItsSeat() throws {
        let server = try TestServer()
        defer { server.stop() }
        let (ann, _, seated) = try Self.firstDuel(server, "saturday")
        #expect(seated.phase == .playing)
        ann.send(.join(JoinRequest(name: "ann", match: "elsewhere")))
        #expect(try ann.awaitError(.alreadyJoined).code == .alreadyJoined)

        let (one, two) = try TestClient.duel(server, match: "plain")
        one.send(.act(.resign, seat: nil))
        _ = try two.awaitEvent("the plain duel over") { if case .gameOver = $0 { true } else { false } }
        two.send(.join(JoinRequest(name: "two", match: "another")))
        #expect(try two.awaitError(.alreadyJoined).code == .alreadyJoined, "no arena: a finished seat is kept")
    }

    /// A player whose arena connection closed after their pairing was told, before they sat,
    /// is told it again when they join the arena again: without the token, the duel would be
    /// their no-show.
    @Test func aPairingIsToldAgainToAPlayerWhoComesBackBeforeSitting() throws {
        let server = try TestServer()
        defer { server.stop() }
        try Room.create(server, "sunday", minutes: 10, startsInS: 60)
        let (ann, _) = try Room.joined(server, "sunday", "ann")
        let (bob, _) = try Room.joined(server, "sunday", "bob")
        server.advance(by: 60_000)
        let told = try Room.pairing(ann), bobs = try Room.pairing(bob)
        ann.hangUp()

        // Her name is free once the server has seen the old connection close: asked until then.
        var again: TestClient?
        for _ in 0..<100 where again == nil {
            let client = try Room.Asked.client(server)
            let answer = try Room.Asked.answer(client, .join(ArenaJoinRequest(arena: "sunday", name: "ann")), id: "again")
            if case .arena = answer { again = client } else { client.hangUp() }
        }
        let retold = try Room.pairing(try #require(again))
        #expect(retold.match == told.match && retold.token == told.token && retold.opponent == "bob")
        #expect(try Self.sit(try #require(again), "ann", in: retold).match == "arena-sunday-1")
        #expect(try Self.sit(bob, "bob", in: bobs).phase == .playing)
    }
}
