import Foundation
import SetCLI
import SetRules
import Testing
@testable import SetLocal
@testable import SetReplay

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
}
