import Foundation
import SetCLI
import SetNet
import SetRules
import SetServer
import SetTestSupport
import SetWire
import Testing

/// `setgame profile`, `history` and `leaderboard`: parsed into their questions, answered by a
/// real server over loopback, printed within 80 columns.
@Suite(.serialized) struct AccountCommandTests {
    @Test func eachCommandParsesIntoItsQuestion() throws {
        #expect(try Commands.parse(["profile", "example.org:7400", "ann", "--json"], defaults: .test)
            == .account(AccountCommand(host: "example.org", port: 7400, query: .profile(name: "ann"), json: true)))
        #expect(try Commands.parse(["history", "example.org", "--limit", "5", "--after", "20"], defaults: .test)
            == .account(AccountCommand(host: "example.org", port: 7380, query: .history(name: nil, after: "20", limit: 5))))
        #expect(try Commands.parse(["leaderboard", "--mode", "junior"], defaults: .test)
            == .account(AccountCommand(host: "127.0.0.1", port: 7380, query: .leaderboard(variant: .junior, after: nil, limit: nil))))
        #expect(throws: UsageError("profile needs the player's NAME", command: "profile")) { try Commands.parse(["profile", "host"], defaults: .test) }
        #expect(throws: UsageError.self) { try Commands.parse(["history", "host", "ann", "--limit", "51"], defaults: .test) }
        #expect(throws: UsageError.self) { try Commands.parse(["play", "--casual"], defaults: .test) }
        guard case .join(let options) = try Commands.parse(["join", "--casual"], defaults: .test) else { Issue.record("not join"); return }
        #expect(options.casual)
    }

    @Test func answersReadAt80Columns() {
        let long = String(repeating: "x", count: 24)
        let game: JSONValue = ["commitment": "c", "durationMs": 61_000, "game": 1, "journal": "m.jsonl", "match": "m", "mode": "duel",
                               "players": [["bot": false, "name": .string(long), "points": -120, "provisional": true, "ratingAfter": 1338,
                                            "ratingBefore": 1500, "sets": 0],
                                           ["guest": true, "name": .string(long), "points": -115, "sets": 12]],
                               "rated": true, "reason": "resigned", "result": "loss", "seat": 0, "variant": "classic", "wall": 1_795_632_343]
        let history = AccountReport.lines(AccountInfo(.history, ["name": .string(long), "games": [game], "next": "20"]))
        #expect(history.count == 3 && history.allSatisfy { $0.count <= 80 }, "\(history)")
        #expect(history[1].contains("2026-11-25 m classic") && history[1].contains("1500 → 1338?, -162"), "\(history)")
        // Issue 45: each line names its match; a long name gives way before the rating change.
        var named = game.objectValue!
        named["match"] = .string("challenge-1234567")
        let lines = AccountReport.lines(AccountInfo(.history, ["name": "ann", "games": [.object(named)]]))
        #expect(lines[1].count == 80 && lines[1].contains(" chal… ") && lines[1].hasSuffix("1500 → 1338?, -162"), "\(lines)")
        named["players"] = [["bot": false, "name": "ann", "points": 3, "sets": 1], ["bot": true, "name": "bot-easy", "points": 0, "sets": 0]]
        let short = AccountReport.lines(AccountInfo(.history, ["name": "ann", "games": [.object(named)]]))
        #expect(short[1].contains(" challenge-1234567 classic loss    3:0 vs bot-easy [bot]"), "\(short)")
        let profile = AccountReport.lines(AccountInfo(.profile, [
            "name": "bob", "bot": true, "games": 3, "wins": 2, "losses": 1, "draws": 0, "bestSetMs": 4_200, "medianSetMs": 9_100,
            "ratings": ["classic": ["rating": 1662, "deviation": 290, "provisional": true, "games": 3]]]))
        #expect(profile == ["bob [bot]: 3 games, 2 wins, 1 loss, 0 draws", "  classic  1662?  RD 290, 3 rated games",
                            "  sets: best 4.2 s, median 9.1 s"])
        let board = AccountReport.lines(AccountInfo(.leaderboard, [
            "variant": "classic", "players": [["rank": 1, "name": .string(long), "bot": true, "rating": 1710, "deviation": 58]]]))
        #expect(board.allSatisfy { $0.count <= 80 } && board[1].contains("1710  RD 58"), "\(board)")
    }

    /// Issue 36 item 11: an empty leaderboard said nothing of why; it says who gets listed.
    @Test func anEmptyLeaderboardSaysWhoIsListed() {
        let board = AccountReport.lines(AccountInfo(.leaderboard, ["variant": "junior", "players": []]))
        #expect(board == ["junior: the established players, best first",
                          "  nobody yet: listed are RD 110 or less, 10 rated games, 5 opponents, over a day"])
        #expect(board.allSatisfy { $0.count <= 80 })
    }

    /// Issue 44: a profile lists the account's arenas, newest first, each on a line of its own
    /// within 80 columns: when it ends or ended, its name, variant, rated or casual, its state,
    /// the player's place among its players, score and games.
    @Test func aProfileListsItsArenas() {
        let arena = { (name: String, rated: Bool, state: String, rank: Int64, players: Int64, score: Int64, games: Int64) -> JSONValue in
            ["arena": .string(name), "variant": "classic", "rated": .bool(rated), "state": .string(state), "rank": .int(rank),
             "players": .int(players), "score": .int(score), "games": .int(games), "wall": 1_795_000_000]
        }
        let profile = AccountReport.lines(AccountInfo(.profile, [
            "name": "ann", "bot": false, "games": 9, "wins": 5, "losses": 4, "draws": 0, "ratings": [:],
            "arenas": [arena("tuesday", true, "finished", 1, 12, 14, 7), arena(String(repeating: "x", count: 20), false, "running", 200, 200, 1, 1)]]))
        #expect(profile == ["ann: 9 games, 5 wins, 4 losses, 0 draws", "  no rated games yet", "  arenas, newest first:",
                            "  2026-11-18 tuesday              classic rated  finished 1/12  14 pts, 7 games",
                            "  2026-11-18 xxxxxxxxxxxxxxxxxxxx classic casual running  200/200  1 pt, 1 game"], "\(profile)")
        #expect(profile.allSatisfy { $0.count <= 80 })
    }

    /// "3 games, 2 wins, 0 losses, 0 draws" said nothing of the third game: the profile says what
    /// games without a win, loss or draw are.
    @Test func aProfileSaysWhatItsGamesWithoutAResultWere() {
        let profile = AccountReport.lines(AccountInfo(.profile, [
            "name": "ann", "bot": false, "games": 3, "wins": 2, "losses": 0, "draws": 0, "ratings": [:]]))
        #expect(profile.count == 3 && profile[0] == "ann: 3 games, 2 wins, 0 losses, 0 draws", "\(profile)")
        #expect(profile[1] == "  1 game with no result: solo, aborted before any set, or self-play (both seats)", "\(profile)")
        #expect(profile.allSatisfy { $0.count <= 80 })
        // A server that counts games against oneself apart leaves solo and aborted games here.
        let counted = AccountReport.lines(AccountInfo(.profile, [
            "name": "ann", "bot": false, "games": 4, "wins": 2, "losses": 0, "draws": 0, "selfGames": 1, "ratings": [:]]))
        #expect(counted[1] == "  1 game with no result: solo, or aborted before any set", "\(counted)")
    }

    /// Issue 32 item 11: a game one account played in both seats reads as a game against
    /// itself, in its history and in its profile, never as a win or a loss.
    @Test func aGameAgainstItselfIsSaidSo() {
        let game: JSONValue = ["commitment": "c", "durationMs": 61_000, "game": 1, "journal": "m.jsonl", "match": "m", "mode": "duel",
                               "players": [["bot": false, "name": "ann", "points": 12, "sets": 2], ["bot": false, "name": "ann", "points": 3, "sets": 1]],
                               "rated": false, "reason": "resigned", "result": "self", "seat": 0, "variant": "classic", "wall": 1_795_632_343]
        let history = AccountReport.lines(AccountInfo(.history, ["name": "ann", "games": [game]]))
        #expect(history.count == 2 && history[1].contains("self") && history[1].contains("12:3 against itself"), "\(history)")
        let profile = AccountReport.lines(AccountInfo(.profile, [
            "name": "ann", "bot": false, "games": 1, "wins": 0, "losses": 0, "draws": 0, "selfGames": 1, "ratings": [:]]))
        #expect(profile.first == "ann: 1 game, 0 wins, 0 losses, 0 draws, 1 against itself", "\(profile)")
    }

    /// The command against a real server: a guest's question about nobody is refused (exit 1);
    /// the leaderboard of an empty server answers (exit 0).
    @Test func theCommandAsksARealServer() throws {
        let server = try RunningServer(config: ServerConfig())
        defer { server.stop() }
        let port = server.port
        #expect(AccountClient.run(AccountCommand(host: "127.0.0.1", port: port, query: .profile(name: "nobody"))) == 1)
        #expect(AccountClient.run(AccountCommand(host: "127.0.0.1", port: port, query: .leaderboard(variant: .classic, after: nil, limit: nil)),
                                  stateDirectory: NSTemporaryDirectory()) == 0)
        let empty = NSTemporaryDirectory() + "setgame-no-account-\(UUID().uuidString)"
        #expect(AccountClient.run(AccountCommand(host: "127.0.0.1", port: port, query: .history(name: nil, after: nil, limit: nil)),
                                  stateDirectory: empty) == 1)
    }
}
