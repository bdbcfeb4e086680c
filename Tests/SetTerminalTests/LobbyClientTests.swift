import SetClient
import SetRules
import SetScreen
import Testing
@testable import SetTerminal

/// `setgame join` and the lobby (issue 36, item 5): who sees it, and the game each way out of it
/// leads to, with the challenge's token kept where the game's client looks for it.
@Suite struct LobbyClientTests {
    static let options = ClientOptions(host: "127.0.0.1", port: 7380, name: "ann", variant: .junior)

    @Test func onlyAPlayerNamingNoMatchWithNoSeatKeptSeesTheLobby() {
        #expect(LobbyClient.showsLobby(Self.options, keptToken: nil))
        // A rerun after a drop goes straight back to the seat, as before the lobby.
        #expect(!LobbyClient.showsLobby(Self.options, keptToken: "t0k"))
        var named = Self.options
        named.match = "friday"
        #expect(!LobbyClient.showsLobby(named, keptToken: nil))
        var solo = Self.options
        solo.mode = .solo
        #expect(!LobbyClient.showsLobby(solo, keptToken: nil))
        var watching = Self.options
        watching.role = .spectator
        #expect(!LobbyClient.showsLobby(watching, keptToken: nil))
    }

    @Test func eachWayOutLeadsToItsGame() throws {
        let watch: (String) -> String? = { "setgame watch 127.0.0.1:7380 \($0)" }
        #expect(LobbyClient.game(after: .quit, from: Self.options, watchCommand: watch) == nil)
        #expect(LobbyClient.game(after: .failed("gone"), from: Self.options, watchCommand: watch) == nil)
        let quick = try #require(LobbyClient.game(after: .quickDuel, from: Self.options, watchCommand: watch))
        #expect(quick.options == Self.options && quick.token == nil)

        let seat = try #require(LobbyClient.game(after: .join(match: "friday"), from: Self.options, watchCommand: watch))
        #expect(seat.options.match == "friday" && seat.options.role == .player && seat.token == nil)
        #expect(seat.options.watchCommand == "setgame watch 127.0.0.1:7380 friday")

        let challenge = try #require(LobbyClient.game(after: .play(match: "challenge-3", token: "t0k", variant: .chain),
                                                      from: Self.options, watchCommand: watch))
        #expect(challenge.options.match == "challenge-3" && challenge.options.variant == nil && challenge.token == "t0k")
        #expect(challenge.options.reservedSeat && !seat.options.reservedSeat, "a refused challenge token is final")
        // The token is kept under the key the game's client reads it from.
        #expect(challenge.options.seatKey == "127.0.0.1:7380 duel challenge-3 ann")

        let watching = try #require(LobbyClient.game(after: .watch(match: "duel-4"), from: Self.options, watchCommand: watch))
        #expect(watching.options.role == .spectator && watching.options.match == "duel-4" && watching.token == nil)
    }
}
