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

        let latest = try watcher.waitFor("the state with all forty") { message -> ArenaView? in
            if case .error(let error, _) = message { Issue.record("the watcher was told \(error.code)") }
            if case .arena(let view, nil) = message, view.standings.count == 40 { return view } else { return nil }
        }
        #expect(Set(latest.standings.map(\.name)) == Set((1...40).map { "p\($0)" }))
        let states = watcher.received.filter { if case .arena(_, nil) = $0 { true } else { false } }.count
        #expect(states < 40, "states were skipped, not all queued: \(states)")
        withExtendedLifetime(players) {}
    }
}
