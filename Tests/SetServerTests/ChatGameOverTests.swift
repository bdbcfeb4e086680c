import Foundation
import SetNet
import SetRules
import SetServer
import SetWire
import Testing

/// Issue 27's rule that players read the spectators' room once their game is over, over real sockets.
@Suite(.serialized) struct ChatGameOverTests {
    func gameOver(_ clients: [TestClient]) throws {
        for client in clients { _ = try client.awaitEvent("game over") { if case .gameOver = $0 { true } else { false } } }
    }

    @Test func atGameOverThePlayersAreSentWhatTheSpectatorsSaidDuringItOnceAndARematchHoldsItBackAgain() throws {
        let data = NSTemporaryDirectory() + "setgame-chat-\(UUID().uuidString)"
        let server = try TestServer { $0.dataDirectory = data }
        let (ann, bob, eve) = try TestClient.duelWithSpectator(server)
        #expect(try eve.say("ann is fast") == nil)
        #expect(try eve.say("bob missed one") == nil)
        // Said after them: any copy for a player mid-game would come before it.
        #expect(try ann.say("gl") == nil)
        for player in [ann, bob] {
            _ = try player.awaitChat("gl")
            #expect(!player.chatLines.contains { $0.room == .spectators }, "nobody coaches a player")
        }

        ann.send(.act(.resign, seat: nil))
        try gameOver([ann, bob, eve])
        for player in [ann, bob] {
            try player.settle()
            let heard = player.chatLines.filter { $0.room == .spectators }
            #expect(heard.map(\.text) == ["ann is fast", "bob missed one"], "each once, oldest first")
            #expect(heard.allSatisfy { $0.name == "eve" && $0.seat == nil && $0.role == .spectator })
        }
        try eve.settle()
        #expect(eve.chatLines.filter { $0.text == "ann is fast" }.count == 1, "spectators read it when it was said, not again")

        // A rematch is a new game: the spectators' room is closed to its players again, and only
        // its own lines reach them at its end.
        ann.send(.act(.rematch, seat: nil))
        bob.send(.act(.rematch, seat: nil))
        for client in [ann, bob, eve] { _ = try client.awaitEvent("game 2") { if case .gameStarted = $0 { true } else { false } } }
        #expect(try eve.say("again!") == nil)
        #expect(try bob.say("rematch gl") == nil)
        _ = try ann.awaitChat("rematch gl")
        #expect(!ann.chatLines.contains { $0.text == "again!" })
        bob.send(.act(.resign, seat: nil))
        try gameOver([ann, bob])
        for player in [ann, bob] {
            try player.settle()
            #expect(player.chatLines.filter { $0.room == .spectators }.map(\.text) == ["ann is fast", "bob missed one", "again!"])
        }
        withExtendedLifetime(eve) { server.stop() }

        // The replay shows each line where it was said, not again where the players were given it.
        var said: [String] = []
        // A match whose game is over goes to `finished/` when the server stops.
        let finished = try FileManager.default.contentsOfDirectory(atPath: data + "/finished").filter { $0.hasPrefix("m") }
        let journal = try #require(finished.first.map { data + "/finished/" + $0 })
        _ = try MatchReplay.open(journal).play({ _ in }, onChat: { said.append($0.text) })
        #expect(said == ["ann is fast", "bob missed one", "gl", "again!", "rematch gl"])
    }

    @Test func aRestartMidGameStillGivesThePlayersTheSpectatorsLinesAtItsEnd() throws {
        let data = NSTemporaryDirectory() + "setgame-chat-\(UUID().uuidString)"
        var first: TestServer? = try TestServer { $0.dataDirectory = data }
        let (ann, bob, eve) = try TestClient.duelWithSpectator(first!)
        #expect(try eve.say("before the restart") == nil)
        let token = try #require(ann.token)
        withExtendedLifetime((ann, bob, eve)) { first?.stop() }
        first = nil

        let second = try TestServer { $0.dataDirectory = data }
        defer { second.stop() }
        let back = try TestClient.joined(second, name: "ann", token: token)
        try back.settle()
        #expect(!back.chatLines.contains { $0.room == .spectators }, "the game is still on")
        back.send(.act(.resign, seat: nil))
        try gameOver([back])
        #expect(try back.awaitChat("before the restart").room == .spectators)
    }
}
