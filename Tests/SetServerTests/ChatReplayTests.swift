import SetRules
import SetWire
import Testing
@testable import SetServer

/// A line a journal says was said is said again when the journal is replayed (a restart,
/// `setgame replay`), whatever today's rules would make of it: issue 32 made an invisible line
/// and a line of skin-toned emoji (200 columns then, 400 now) refusable, and a journal holding one
/// must not be set aside as damaged for it.
struct ChatReplayTests {
    @Test func aLineAnEarlierServerAcceptedIsSaidAgainOnReplay() throws {
        var live = MatchHost(name: "m", mode: .duel, settings: .standard, seatWaitMs: 60_000)
        var journal: [JournalRecord] = [.header(name: "m", mode: .duel, rules: .standard)]
        for (seat, name, token) in [(Seat.first, "ann", MatchHostTests.annToken), (.second, "bob", MatchHostTests.bobToken)] {
            journal += live.handle(.join(name: name, token: token, connection: seat.rawValue + 1, seat: nil),
                                   at: MatchHostTests.at(1_000)) { 7 }.journal
        }
        let earlier = ["\u{200B}", String(repeating: "\u{1F44D}\u{1F3FD}", count: 100), "g\u{2060}g"]
        for text in earlier {
            journal.append(.chat(room: .players, seat: .first, name: "ann", text: text, at: MatchHostTests.at(2_000)))
        }
        var replayed: [ChatLine] = []
        let host = try JournalReplay.host(from: journal, seatWaitMs: 60_000) { output in
            for case .chat(let line, _) in output.messages { replayed.append(line) }
        }
        #expect(replayed.map(\.text) == ["", String(repeating: "\u{1F44D}\u{1F3FD}", count: 100), "gg"],
                "said as they were, without the format characters no terminal may see")
        #expect(host.chatBacklog(for: .player).count == earlier.count)
    }
}
