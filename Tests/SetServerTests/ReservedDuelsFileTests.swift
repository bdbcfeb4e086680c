import Foundation
import SetRules
@testable import SetServer
import SetTestSupport
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
