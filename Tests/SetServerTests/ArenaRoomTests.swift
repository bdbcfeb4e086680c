import SetRules
import SetServer
import SetTestSupport
import SetWire
import Testing

/// Issue 44: the arena's room on one server, over real sockets: joined, the state answered and
/// pushed to every follower on a change, paused, resumed, left, paused when the connection
/// closes, started and ended on the server's clock, a pairing told with each player's token once
/// it is stored, a duel's result counted once its record is committed, and the players paired again.
@Suite struct ArenaRoomTests {
    typealias Asked = ArenaRequestTests

    /// A new connection joined to `arena` as `name`, with the state it was answered.
    static func joined(_ server: TestServer, _ arena: String, _ name: String, watch: Bool = false) throws -> (TestClient, ArenaView) {
        let client = try Asked.client(server)
        let answer = try Asked.answer(client, .join(ArenaJoinRequest(arena: arena, name: name, watch: watch)), id: "j-\(name)")
        guard case .arena(let view, _) = answer else { throw ClientTimedOut(waitingFor: "\(name)'s arena, got \(answer)") }
        return (client, view)
    }

    static func create(_ server: TestServer, _ arena: String, minutes: Int = 10, startsInS: Int = 0) throws {
        let made = try Asked.answer(try Asked.client(server), .create(ArenaCreation(arena: arena, minutes: minutes, startsInS: startsInS)), id: "c")
        guard case .arena = made else { throw ClientTimedOut(waitingFor: "arena \(arena) made, got \(made)") }
    }

    /// The next pushed `arena` line (no `id`) that satisfies `wanted`.
    static func pushed(_ client: TestClient, _ what: String, _ wanted: @escaping (ArenaView) -> Bool) throws -> ArenaView {
        try client.waitFor(what) { message in
            if case .arena(let view, nil) = message, wanted(view) { view } else { nil }
        }
    }

    static func pairing(_ client: TestClient) throws -> ArenaPairingNotice {
        try client.waitFor("arena_pairing") { if case .arenaPairing(let notice) = $0 { notice } else { nil } }
    }

    static func entry(_ view: ArenaView, _ name: String) -> ArenaEntry? { view.standings.first { $0.name == name } }

    @Test func aJoinIsAnsweredWithTheStateAndPushedToTheOthers() throws {
        let server = try TestServer()
        defer { server.stop() }
        try Self.create(server, "friday", startsInS: 60)
        let (ann, first) = try Self.joined(server, "friday", "ann")
        #expect(first.state == .starting && first.standings.map(\.name) == ["ann"] && first.boards.isEmpty)
        let (wat, watched) = try Self.joined(server, "friday", "wat", watch: true)
        #expect(watched.standings.map(\.name) == ["ann"], "a watcher is no player")
        let (bob, second) = try Self.joined(server, "friday", "bob")
        defer { _ = bob }
        #expect(second.standings.map(\.name).sorted() == ["ann", "bob"] && second.standings.map(\.rank) == [1, 2])
        for follower in [ann, wat] {
            let heard = try Self.pushed(follower, "bob's arrival") { $0.standings.count == 2 }
            #expect(heard.state == .starting && heard.boards.isEmpty)
        }
        guard case .error(let none, _) = try Asked.answer(ann, .join(ArenaJoinRequest(arena: "nothing", name: "ann")), id: "n") else {
            Issue.record("joined no arena")
            return
        }
        #expect(none.code == .noSuchArena)
    }

    @Test func aPlayerPausesResumesAndLeavesKeepingTheirPlace() throws {
        let server = try TestServer()
        defer { server.stop() }
        try Self.create(server, "sunday", startsInS: 60)
        let (ann, _) = try Self.joined(server, "sunday", "ann")
        guard case .error(let outside, _) = try Asked.answer(try Asked.client(server), .pause, id: "p0") else { Issue.record("paused outside"); return }
        #expect(outside.code == .notInArena)
        for (request, paused) in [(ArenaRequest.pause, true), (.resume, false), (.leave, true)] {
            guard case .arena(let view, _) = try Asked.answer(ann, request, id: "\(request)") else { Issue.record("\(request) not answered"); return }
            #expect(Self.entry(view, "ann")?.paused == paused, "\(request)")
        }
        guard case .error(let left, _) = try Asked.answer(ann, .pause, id: "p1") else { Issue.record("paused after leaving"); return }
        #expect(left.code == .notInArena, "a player who left is no longer joined")
        guard case .arenaResults(let stored, _) = try Asked.answer(try Asked.client(server), .results(arena: "sunday"), id: "r") else {
            Issue.record("no results")
            return
        }
        #expect(stored.standings.map(\.name) == ["ann"] && stored.standings.first?.paused == true, "the leave was written to the store")
        guard case .arena(let back, _) = try Asked.answer(ann, .join(ArenaJoinRequest(arena: "sunday", name: "ann")), id: "j") else {
            Issue.record("not joined again")
            return
        }
        #expect(Self.entry(back, "ann")?.paused == false)
    }

    @Test func aClosedConnectionPausesItsPlayer() throws {
        let server = try TestServer()
        defer { server.stop() }
        try Self.create(server, "monday", startsInS: 60)
        let (ann, _) = try Self.joined(server, "monday", "ann")
        let (bob, _) = try Self.joined(server, "monday", "bob")
        _ = try Self.pushed(ann, "bob") { $0.standings.count == 2 }
        bob.hangUp()
        let heard = try Self.pushed(ann, "bob paused") { Self.entry($0, "bob")?.paused == true }
        #expect(Self.entry(heard, "ann")?.paused == false)
    }

    /// Started by the server's clock: both free players are paired, each told their own token
    /// once the duel is stored; the duel played to its end is counted once its record is
    /// committed, and the two (the arena has nobody else) are paired again.
    @Test func theArenaStartsPairsCountsAndPairsAgain() throws {
        let server = try TestServer()
        defer { server.stop() }
        try Self.create(server, "tuesday", minutes: 1, startsInS: 60)
        let (ann, _) = try Self.joined(server, "tuesday", "ann")
        let (bob, _) = try Self.joined(server, "tuesday", "bob")
        server.advance(by: 60_000)
        let anns = try Self.pairing(ann), bobs = try Self.pairing(bob)
        #expect(anns.match == "arena-tuesday-1" && bobs.match == anns.match && anns.token != bobs.token)
        #expect(anns.opponent == "bob" && bobs.opponent == "ann")
        let running = try Self.pushed(ann, "the board") { $0.state == .running && !$0.boards.isEmpty }
        #expect(running.boards.map(\.match) == ["arena-tuesday-1"])

        let annSeat = try TestClient.greeted(port: server.port), bobSeat = try TestClient.greeted(port: server.port)
        annSeat.send(.join(JoinRequest(name: "ann", match: anns.match, token: anns.token)))
        _ = try annSeat.waitFor("ann's snapshot") { if case .snapshot = $0 { true } else { nil } }
        bobSeat.send(.join(JoinRequest(name: "bob", match: bobs.match, token: bobs.token)))
        let seated = try bobSeat.waitFor("bob's snapshot") { if case .snapshot(let view) = $0 { view } else { nil } }
        #expect(seated.phase == .playing && seated.match == anns.match)
        annSeat.send(.act(.resign, seat: nil))
        // Told in this order: the next pairing once it is stored, then the state with its board.
        let again = try Self.pairing(bob)
        #expect(again.match == "arena-tuesday-2" && again.opponent == "ann", "nobody else to offer them")
        let counted = try Self.pushed(bob, "bob's win counted") { Self.entry($0, "bob")?.score == 2 }
        #expect(Self.entry(counted, "ann")?.score == 0 && Self.entry(counted, "ann")?.games == 1)
        #expect(counted.standings.first?.name == "bob" && counted.boards.map(\.match) == ["arena-tuesday-2"])
        guard case .arenaResults(let stored, _) = try Asked.answer(try Asked.client(server), .results(arena: "tuesday"), id: "r") else {
            Issue.record("no results")
            return
        }
        #expect(stored.standings.map(\.name) == ["bob", "ann"] && stored.standings.map(\.score) == [2, 0], "recounted from the store")

        server.advance(by: 60_000)
        let over = try Self.pushed(ann, "the end") { $0.state == .finished }
        #expect(over.boards.map(\.match) == ["arena-tuesday-2"], "the duel under way finishes")
        guard case .error(let late, _) = try Asked.answer(try Asked.client(server), .join(ArenaJoinRequest(arena: "tuesday", name: "cat")), id: "l") else {
            Issue.record("joined a finished arena")
            return
        }
        #expect(late.code == .arenaOver)
        let (_, watched) = try Self.joined(server, "tuesday", "wat", watch: true)
        #expect(watched.state == .finished)
    }

    /// A told duel nobody sits in within the seat wait is lost by both (a no-show); twice in a
    /// row, and both are paused. The arena's ends are the store's.
    @Test func aDuelNobodySitsInIsLostByBothAndTwiceTheyArePaused() throws {
        let server = try TestServer { $0.limits.seatWaitMs = 30_000 }
        defer { server.stop() }
        try Self.create(server, "wednesday")
        let (ann, _) = try Self.joined(server, "wednesday", "ann")
        let (bob, _) = try Self.joined(server, "wednesday", "bob")
        defer { _ = bob }
        #expect(try Self.pairing(ann).match == "arena-wednesday-1")
        server.advance(by: 30_000)
        // Nobody else to offer them: paired again at once.
        #expect(try Self.pairing(ann).match == "arena-wednesday-2")
        let once = try Self.pushed(ann, "the first no-show") { Self.entry($0, "ann")?.games == 1 }
        #expect(once.standings.map(\.score) == [0, 0] && once.standings.allSatisfy { !$0.paused })
        server.advance(by: 30_000)
        let twice = try Self.pushed(ann, "the second no-show") { Self.entry($0, "ann")?.games == 2 }
        #expect(twice.standings.allSatisfy { $0.paused && $0.games == 2 && $0.score == 0 } && twice.boards.isEmpty)
        guard case .arenaResults(let stored, _) = try Asked.answer(try Asked.client(server), .results(arena: "wednesday"), id: "r") else {
            Issue.record("no results")
            return
        }
        #expect(stored.standings.map(\.games) == [2, 2], "both ends are the store's")
    }
}
