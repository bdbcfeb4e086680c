@testable import SetServer
import SetTestSupport
import SetWire
import Testing

/// Issue 44: an arena's state reaches a follower that reads slowly without cutting it off. Each
/// `arena` line is the whole state, so a follower still reading an earlier one is sent the latest
/// once its queue has room, not every state between: 200 players' joins once queued 200 states of
/// 34 KB for each of them and cut every player off as a slow consumer.
@Suite struct ArenaPushTests {
    typealias Room = ArenaRoomTests
    typealias Asked = ArenaRequestTests

    @Test func aFollowerReadingSlowlyGetsTheLatestStateAndStays() throws {
        let server = try TestServer {
            $0.limits.outboundQueueBytes = 16_384
            $0.limits.messageBurst = 1_000_000
            $0.perAddress.arenaPlayers = 40  // every player here comes from 127.0.0.1
        }
        defer { server.stop() }
        try Room.create(server, "slow", startsInS: 600)
        let watcher = TestClient(connectedSocket: try starvedSocket(port: server.port))
        _ = try watcher.waitFor("welcome") { if case .welcome = $0 { true } else { nil } }
        guard case .arena = try Asked.answer(watcher, .join(ArenaJoinRequest(arena: "slow", name: "wat", watch: true)), id: "w") else {
            Issue.record("the watcher was not let in")
            return
        }
        // Forty joins while the watcher reads nothing: their states add up to some 140 KB.
        var players: [TestClient] = []
        for index in 1...40 { players.append(try Room.joined(server, "slow", "p\(index)").0) }
        server.advance(by: PushPace.intervalMs)  // the states past the pace's burst go together a second on

        let latest = try watcher.waitFor("the state with all forty") { message -> ArenaView? in
            if case .error(let error, _) = message { Issue.record("the watcher was told \(error.code)") }
            if case .arena(let view, nil) = message, view.standings.count == 40 { return view } else { return nil }
        }
        #expect(Set(latest.standings.map(\.name)) == Set((1...40).map { "p\($0)" }))
        let states = watcher.received.filter { if case .arena(_, nil) = $0 { true } else { false } }.count
        #expect(states < 40, "states were skipped, not all queued: \(states)")
        withExtendedLifetime(players) {}
    }

    /// A change that leaves the state's line as it was (here: watchers coming, which the
    /// standings do not show) sends the players nothing; a real change (bob joining) still goes out.
    @Test func anUnchangedStateIsNotPushedAgain() throws {
        let server = try TestServer()
        defer { server.stop() }
        try Room.create(server, "same", startsInS: 600)
        let (ann, _) = try Room.joined(server, "same", "ann")
        let annsOwn = try Room.pushed(ann, "ann's own arrival") { $0.standings.map(\.name) == ["ann"] }
        let pushedBefore = ann.received.count
        // Each watcher's join settles the arena again; the first one's follow bumped its version.
        var watchers: [TestClient] = []
        for index in 1...3 { watchers.append(try Room.joined(server, "same", "w\(index)", watch: true).0) }
        let (bob, _) = try Room.joined(server, "same", "bob")
        let withBob = try Room.pushed(ann, "bob's arrival") { $0.standings.count == 2 }
        #expect(withBob.standings.map(\.name).sorted() == ["ann", "bob"] && withBob.startsAt == annsOwn.startsAt)
        let between = ann.received[pushedBefore...].filter { if case .arena = $0 { true } else { false } }
        #expect(between.count == 1, "ann was sent \(between.count - 1) state(s) the same as the one she had")
        for watcher in watchers { _ = try Room.pushed(watcher, "bob's arrival, to a watcher") { $0.standings.count == 2 } }
        withExtendedLifetime(bob) {}
    }
}

/// The room's judgement of what is news, which a socket test cannot time: a state one follower was
/// answered with, unlike the one all were pushed, makes the next push go out even if it says what
/// the last push said, so that follower is not left on a state the others never had.
@Suite struct ArenaPushNewsTests {
    static func room() -> ArenaRoom {
        ArenaRoom(StoredArena(name: "news", variant: .classic, rated: true, startsAt: 0, endsAt: 600_000, players: [], ended: [], underWay: []),
                  at: 1_000, offset: 0)
    }

    @Test func aStateIsNewsUntilPushedAndAgainAfterAnotherWasAnswered() {
        let room = Self.room()
        let before = room.view()
        #expect(room.isNews(before), "nothing was pushed yet")
        room.pushed(before, line: [0x0A])
        #expect(!room.isNews(before))
        room.answered(before)
        #expect(!room.isNews(before), "an answer with the pushed state changes nothing")

        var paused = before
        paused.standings = [ArenaEntry(rank: 1, name: "cy", paused: true)]
        room.answered(paused)
        #expect(room.isNews(before), "one follower was answered another state: the state all had is news to it")
    }
}
