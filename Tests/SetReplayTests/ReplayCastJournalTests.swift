import Foundation
import Glibc
import SetRules
@testable import SetServer
import SetWire
import Testing
@testable import SetReplay

/// A cast of a duel's journal: the chat said shows where it was said, the header carries the
/// wall-clock time the match began, and a long quiet stretch costs a few screens, not one a
/// millisecond.
@Suite(.serialized) struct ReplayCastJournalTests {
    /// A duel of ann and bob: dealt at 1 s, ann says "good luck" at 3 s, and nothing more
    /// happens until ann steps away at 13 s.
    static let records = [
        #"{"mode":"duel","name":"chatty","rules":{"claimTimeoutPenalty":10,"claimWindowMs":5000,"dealGraceMs":8000,"dealPenalty":15,"hintCost":15,"hintsInDuel":false,"secondChanceMs":10000,"setPointsLostPerSecond":1,"setPointsMax":30,"setPointsMin":10,"wrongSetPenalty":10},"type":"match","version":1}"#,
        #"{"at":1000,"name":"ann","seat":0,"token":"2788637d8a12bc3b80194b3e8d4d0b4a","type":"seat"}"#,
        #"{"at":1000,"name":"bob","seat":1,"token":"33b591cf0af7a79cb7da10123a1cde01","type":"seat"}"#,
        #"{"at":1000,"commitment":"b06aa72ecd14f46eed53934fad1f07c49d953300a26576feb968c66ea7d7a48b","game":1,"seed":"5","type":"game"}"#,
        #"{"at":3000,"name":"ann","room":"players","seat":0,"text":"good luck","type":"chat"}"#,
        #"{"at":13000,"seat":0,"type":"away"}"#,
    ]

    /// The journal in a fresh folder, last written at Unix second `modified`.
    static func journal(modified: Int) throws -> String {
        let folder = NSTemporaryDirectory() + "setgame-cast-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let path = folder + "/chatty.jsonl"
        try (records.joined(separator: "\n") + "\n").write(toFile: path, atomically: true, encoding: .utf8)
        var times = [timeval(tv_sec: modified, tv_usec: 0), timeval(tv_sec: modified, tv_usec: 0)]
        #expect(utimes(path, &times) == 0)
        return path
    }

    @Test func theCastKeepsTheChatAndTheRealStartTime() throws {
        let modified = 1_795_000_000
        let path = try Self.journal(modified: modified)
        defer { _ = try? FileManager.default.removeItem(atPath: (path as NSString).deletingLastPathComponent) }
        let cast = path + ".cast"
        var errors: [String] = []
        let status = ReplayCommand.run(ReplayOptions(file: path, cast: cast), out: { _ in }, err: { errors.append($0) })
        #expect(status == 0 && errors.isEmpty, "\(errors)")
        let lines = try String(contentsOfFile: cast, encoding: .utf8).split(separator: "\n").map(String.init)
        let header = try #require(JSONSerialization.jsonObject(with: Data(lines[0].utf8)) as? [String: Any])
        // Dealt at 1 s, last written at 13 s: the match began 12 s before the file's time.
        #expect(header["timestamp"] as? Int == modified - 12, "\(lines[0])")
        // ANSI stripped: the renderer moves the cursor over blank cells, so each escape reads as a gap.
        let texts = try lines.dropFirst().map { line in
            let event = try #require(JSONSerialization.jsonObject(with: Data(line.utf8)) as? [Any])
            return try #require(event[2] as? String).replacing(#/\x1B\[[0-9;?]*[A-Za-z]/#, with: " ")
                .split(separator: " ").joined(separator: " ")
        }
        let said = texts.contains { $0.contains("ann: good luck") }
        #expect(said, "the chat shows where it was said")
    }

    /// The spectator's app asked to wake every millisecond (its pings, never answered in a
    /// replay): a 6-minute duel composed some 360,000 screens, 39 s of CPU.
    @Test func aQuietStretchComposesFewScreens() throws {
        let path = try Self.journal(modified: 1_795_000_000)
        defer { _ = try? FileManager.default.removeItem(atPath: (path as NSString).deletingLastPathComponent) }
        let replay = try MatchReplay.open(path)
        var events: [WireEvent] = []
        try replay.play { events.append($0) }
        let first = try #require(events.first)
        var screen = ReplayCast.Spectator(app: ReplayCast.spectator(of: replay, at: first.time), start: first.time)
        for event in events { _ = screen.take(.event(event), at: event.time) }
        _ = screen.take(.chat(ChatLine(match: "chatty", room: .players, name: "bob", seat: .second, text: "hello?", time: 13_000)),
                        at: 13_000)
        // A frame for each change the screen makes by itself (a notice, a chat line fading), not
        // one a millisecond (some 12,000 here).
        #expect(screen.composed < 100, "\(screen.composed) screens for 12 quiet seconds")
    }

    /// The accounts log of a data folder in which game 1 (seed 5's commitment) was rated.
    static let accountsLog = [
        #"{"bot":true,"id":0,"identity":"key:57c04d7123ce575cd9ac978505fada4d48de2c6a35b6bcd7ef5cdf44c67caa6c","name":"easy1","type":"account","wall":1795801870}"#,
        #"{"bot":true,"id":1,"identity":"key:82cf01bd3a58169c6973942f46b8e1b5c16a38f2ba3b72adaebf7666e973072f","name":"easy2","type":"account","wall":1795801870}"#,
        #"{"commitment":"b06aa72ecd14f46eed53934fad1f07c49d953300a26576feb968c66ea7d7a48b","durationMs":277300,"endedAt":279357,"game":1,"journal":"castduel.jsonl","match":"castduel","mode":"duel","outcome":"win","players":[{"account":0,"after":{"r":"1337.6891074309397","rd":"290.31896252204893","vol":"0.05999926959652241"},"before":{"r":"1500.0","rd":"350.0","vol":"0.06"},"name":"easy1","points":108,"setTimes":[10498,5578,17150,15002,8130,7105,27642],"sets":7},{"account":1,"after":{"r":"1662.3108925690603","rd":"290.31896252204893","vol":"0.05999926959652241"},"before":{"r":"1500.0","rd":"350.0","vol":"0.06"},"name":"easy2","points":356,"setTimes":[6133,8489,9378,7305,14961,19023,7045,4382,7172,16352,6051,7564,26231,13050,6274,5613,7438,13734],"sets":18}],"rated":true,"reason":"no_sets_left","type":"game","variant":"classic","wall":1795802148,"winner":1}"#,
    ]

    /// A cast lost the ratings: the journal holds none. They come from the accounts database of
    /// the data folder the journal lies in (or the accounts log of a folder an earlier version
    /// wrote, not yet imported), and the game-over box shows how each moved.
    @Test func theCastShowsTheRatingsTheAccountsRecorded() throws {
        let path = try Self.journal(modified: 1_795_000_000)
        let folder = (path as NSString).deletingLastPathComponent
        defer { _ = try? FileManager.default.removeItem(atPath: folder) }
        let replay = try MatchReplay.open(path)
        #expect(replay.recordedRatings().isEmpty, "no accounts folder, no ratings")
        try FileManager.default.createDirectory(atPath: folder + "/accounts", withIntermediateDirectories: true)
        try (Self.accountsLog.joined(separator: "\n") + "\n").write(toFile: folder + "/accounts/accounts.jsonl", atomically: true, encoding: .utf8)
        let ratings = replay.recordedRatings()
        #expect(ratings[1] == [RatingChange(seat: .first, before: 1500, after: 1338, provisional: true),
                               RatingChange(seat: .second, before: 1500, after: 1662, provisional: true)], "\(ratings)")
        let over = WireEvent(match: "chatty", seq: 9, time: 20_000,
                             body: .gameOver(MatchResult(reason: .noSetsLeft, by: nil, scores: [108, 356], winner: .second), seed: 5))
        guard case .gameOver(_, _, let shown) = ReplayCast.withRatings(over, ratings[1]).body else { Issue.record("not a game over"); return }
        #expect(shown == ratings[1])
        // A server's first start imports the log: the database answers, read only.
        let file = folder + "/accounts/" + StoreLocation.sqliteFileName
        _ = try SQLAccountStore.open(.sqliteFile(file), dataFolder: folder, policy: .standard, wallSeconds: 1, log: .silent)
        #expect(!FileManager.default.fileExists(atPath: folder + "/accounts/accounts.jsonl"))
        let written = try FileManager.default.attributesOfItem(atPath: file)[.modificationDate] as? Date
        #expect(replay.recordedRatings() == ratings)
        #expect(try FileManager.default.attributesOfItem(atPath: file)[.modificationDate] as? Date == written, "read only")
    }
}
