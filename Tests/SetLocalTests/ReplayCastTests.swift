import Foundation
import SetRules
import Testing
@testable import SetLocal
@testable import SetReplay
@testable import SetServer

/// `setgame replay FILE --cast OUT` on the journal of a solo game played to its end over real
/// sockets: an asciinema v2 recording whose header is valid, whose times never go back, and
/// whose last frame shows the final score as a spectator saw it.
@Suite(.serialized) struct ReplayCastTests {
    @Test func aFinishedGameCastsAsASpectatorSawIt() throws {
        let state = "/tmp/setgame-local-\(UInt32.random(in: 0...UInt32.max))"
        defer { _ = try? FileManager.default.removeItem(atPath: state) }
        let game = try HeadlessSoloGame(state: state, seed: 11)
        _ = game.playToTheEnd()
        let score = try #require(game.view?.result?.scores.first)
        game.stop()
        let journal = game.kept.newestFinished() ?? "\(game.kept.dataDirectory)/\(game.kept.match).jsonl"
        let cast = "\(state)/game.cast"
        var printed: [String] = [], errors: [String] = []
        let status = ReplayCommand.run(ReplayOptions(file: journal, cast: cast), out: { printed.append($0) }, err: { errors.append($0) })
        #expect(status == 0 && errors.isEmpty, "\(errors)")
        #expect(printed.last?.contains(cast) == true)

        let lines = try String(contentsOfFile: cast, encoding: .utf8).split(separator: "\n").map(String.init)
        #expect(lines.count > 30)
        let header = try #require(JSONSerialization.jsonObject(with: Data(lines[0].utf8)) as? [String: Any])
        #expect(header["version"] as? Int == 2 && header["width"] as? Int == 80 && header["height"] as? Int == 24)
        #expect(header["timestamp"] as? Int != nil && (header["title"] as? String)?.isEmpty == false)
        var times: [Double] = []
        var texts: [String] = []
        for line in lines.dropFirst() {
            let event = try #require(JSONSerialization.jsonObject(with: Data(line.utf8)) as? [Any], "\(line)")
            #expect(event.count == 3 && event[1] as? String == "o")
            times.append(try #require((event[0] as? NSNumber)?.doubleValue))
            texts.append(try #require(event[2] as? String))
        }
        #expect(times == times.sorted(), "times never go back")
        #expect((times.last ?? 0) > 0, "at the pace played")
        // ANSI stripped: the renderer moves the cursor over blank cells, so each escape reads as a gap.
        let last = try #require(texts.last).replacing(#/\x1B\[[0-9;?]*[A-Za-z]/#, with: " ")
            .split(separator: " ").joined(separator: " ")
        #expect(last.contains("Game over") && last.contains("sol \(score)"), "\(last)")
        #expect(last.contains("sol scored \(score)"), "a spectator is not told 'You scored'")
    }

    /// Issue 32 item 21: a game whose first table is not the one its seed deals gets the same
    /// verdict and exit status, 2, from the cast as from the text replay (and an honest one 0
    /// from both). The journal is a real one; the replay is told its seed deals the same cards in
    /// another order, which is what a journal whose table was changed looks like to it.
    @Test func aMisdealtTableFailsTheCastAsItFailsTheTextReplay() throws {
        let state = "/tmp/setgame-local-\(UInt32.random(in: 0...UInt32.max))"
        defer { _ = try? FileManager.default.removeItem(atPath: state) }
        let game = try HeadlessSoloGame(state: state, seed: 12)
        _ = game.playToTheEnd()
        game.stop()
        let journal = game.kept.newestFinished() ?? "\(game.kept.dataDirectory)/\(game.kept.match).jsonl"
        let honest = try MatchReplay.open(journal)
        var games = honest.games
        try #require(!games.isEmpty)
        games[0].dealtTable.reverse()
        let misdealt = MatchReplay(path: honest.path, name: honest.name, mode: honest.mode, variant: honest.variant,
                                   rules: honest.rules, games: games)
        for (match, expected) in [(honest, Int32(0)), (misdealt, 2)] {
            var text: [String] = [], cast: [String] = [], errors: [String] = []
            let textStatus = ReplayCommand.run(match, ReplayOptions(file: journal), out: { text.append($0) }, err: { errors.append($0) })
            let castStatus = ReplayCommand.run(match, ReplayOptions(file: journal, cast: "\(state)/game.cast"),
                                               out: { cast.append($0) }, err: { errors.append($0) })
            #expect(errors.isEmpty, "\(errors)")
            #expect(textStatus == expected && castStatus == expected, "text \(textStatus), cast \(castStatus)")
            let verdict = text.filter { $0.hasPrefix("game ") }
            #expect(verdict.count == games.count && verdict.allSatisfy(cast.contains), "the cast says the same verdict: \(cast)")
            #expect(verdict.contains { $0.contains("NOT the one this seed deals") } == (expected == 2))
        }
    }
}
