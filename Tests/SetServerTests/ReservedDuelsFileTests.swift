import Foundation
import SetRules
@testable import SetServer
import SetTestSupport
import SetWire
import Testing

/// The accepted challenges' and arenas' duels kept in the data folder before anyone sits: a
/// casual arena's duel comes back unrated after a restart, and a file without the field (an
/// older version's) reads as rated.
@Suite struct ReservedDuelsFileTests {
    @Test func aCasualArenasDuelIsKeptUnrated() throws {
        let folder = temporaryFolder("setgame-reserved")
        let file = ReservedDuelsFile(folder: folder)
        let until = Instant(milliseconds: 90_000)
        let kept: [String: ReservedMatch] = [
            "arena-casual-1": ReservedMatch(tokens: ["a", "b"], mode: .duel, variant: .junior, unclaimedUntil: until, rated: false),
            "challenge-1": ReservedMatch(tokens: ["c", "d"], mode: .duel, unclaimedUntil: until),
            "play": ReservedMatch(tokens: ["e"], mode: .solo),
        ]
        file.write(kept)
        #expect(file.read() == kept.filter { $0.key != "play" }, "only one occasion's duels are kept, each as it was")
        try #"{"old-1":{"mode":"duel","tokens":["x","y"],"until":5,"variant":"classic"}}"#.write(toFile: file.path, atomically: true, encoding: .utf8)
        #expect(file.read()["old-1"]?.rated == true)
    }
}

/// A one-occasion reservation (an accepted challenge's duel, an arena's), kept in
/// `reserved-duels.json`, lapses on the server's clock on a server that is no node too: past its
/// deadline its tokens seat nobody, and the file forgets it; one still in time seats its player.
@Suite struct ReservedDuelsLapseTests {
    @Test func pastItsDeadlineAReservationSeatsNobody() throws {
        let folder = temporaryFolder("setgame-reserved-lapse")
        let early = [SeatToken.make(), SeatToken.make()], late = [SeatToken.make(), SeatToken.make()]
        // The test server's clock starts at 1,000 ms, its first sweep at 2,000.
        ReservedDuelsFile(folder: folder).write([
            "duel-early": ReservedMatch(tokens: Set(early), mode: .duel, unclaimedUntil: Instant(milliseconds: 1_200)),
            "duel-late": ReservedMatch(tokens: Set(late), mode: .duel, unclaimedUntil: Instant(milliseconds: 60_000)),
        ])
        let server = try TestServer { $0.dataDirectory = folder }
        defer { server.stop() }
        // Past the deadline, before any sweep: the join itself finds the reservation lapsed.
        server.advance(by: 500)

        let lapsed = try TestClient(port: server.port)
        lapsed.send(.join(JoinRequest(name: "ann", match: "duel-early", token: early[0])))
        let refused = try lapsed.waitFor("the lapsed token's answer") { message -> ServerMessage? in
            switch message {
            case .joined, .error: message
            default: nil
            }
        }
        guard case .error(let error, _) = refused else {
            Issue.record("a reservation past its deadline seated ann: \(refused)")
            return
        }
        #expect(error.code == .badToken)

        let inTime = try TestClient(port: server.port)
        inTime.send(.join(JoinRequest(name: "bob", match: "duel-late", token: late[0])))
        _ = try inTime.waitFor("bob seated in time") { if case .joined(_, "duel-late", _, _, _, _, _) = $0 { true } else { nil } }

        // The sweep forgets it, and so does the kept file.
        server.advance(by: 1_000)
        let kept = polled({ ReservedDuelsFile(folder: folder).read() }, until: { $0["duel-early"] == nil })
        #expect(kept["duel-early"] == nil && kept["duel-late"] != nil, "the file still keeps \(kept.keys.sorted())")
    }
}

/// An accepted challenge's duel waiting for its second player outlives `kill -9` as its players
/// were told it: its journal is on disk from the first seat, so the first player's seat and a
/// chat line acknowledged there are known again (before, the seat went to whoever came first
/// after the restart, and the line was gone).
@Suite struct ReservedDuelCrashTests {
    @Test func aWaitingChallengesSeatAndChatOutliveACrash() throws {
        let folder = temporaryFolder("setgame-reserved-crash")
        let tokens = [SeatToken.make(), SeatToken.make()]
        ReservedDuelsFile(folder: folder).write([
            "challenge-1": ReservedMatch(tokens: Set(tokens), mode: .duel, unclaimedUntil: Instant(milliseconds: 600_000)),
        ])
        let first = try TestServer { $0.dataDirectory = folder }
        let ann = try TestClient(port: first.port)
        ann.send(.join(JoinRequest(name: "ann", match: "challenge-1", token: tokens[0])))
        let seat = try ann.waitFor("ann's seat") { if case .joined(_, _, _, let seat, _, _, _) = $0 { seat } else { nil } }
        #expect(seat == .first)
        #expect(try ann.say("bob, I am here") == nil, "acknowledged")
        // What kill -9 leaves: the folder's files as they are now, the server still running.
        let image = temporaryFolder("setgame-reserved-crash-image")
        for name in try FileManager.default.contentsOfDirectory(atPath: folder)
        where name.hasSuffix(".jsonl") || name.hasSuffix(".json") {
            try FileManager.default.copyItem(atPath: "\(folder)/\(name)", toPath: "\(image)/\(name)")
        }
        withExtendedLifetime(ann) { first.stop() }

        let second = try TestServer {
            $0.dataDirectory = image
            $0.accounts.allowsEmptyStore = true  // guests only: the accounts file is not in the image
        }
        defer { second.stop() }
        let bob = try TestClient(port: second.port)
        bob.send(.join(JoinRequest(name: "bob", match: "challenge-1", token: tokens[1])))
        let bobs = try bob.waitFor("bob's seat") { if case .joined(_, _, _, let seat, _, _, _) = $0 { seat } else { nil } }
        #expect(bobs == .second, "ann's seat is still hers")
        _ = try bob.waitFor("ann's line") { message in
            if case .chat(let line) = message, line.name == "ann", line.text == "bob, I am here" { true } else { nil }
        }
        let back = try TestClient(port: second.port)
        back.send(.join(JoinRequest(name: "ann", match: "challenge-1", token: tokens[0])))
        let resumed = try back.waitFor("ann back") { if case .joined(_, _, _, let seat, _, let resumed, _) = $0 { (seat, resumed) } else { nil } }
        #expect(resumed.0 == .first && resumed.1, "ann comes back to seat 0")
    }
}
