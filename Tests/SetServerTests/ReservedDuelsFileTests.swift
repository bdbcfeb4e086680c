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
