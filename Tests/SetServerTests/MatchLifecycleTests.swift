@testable import SetServer
import SetRules
import SetWire
import Testing

/// A match's life as one enum (`MatchLifecycle`): each stage holds what it needs, and the game a
/// stage ends is an output of the input that ended it, never a flag read back afterwards.
@Suite struct MatchLifecycleTests {
    static func at(_ milliseconds: Int64) -> Instant { Instant(milliseconds: milliseconds) }

    @Test func aMatchWaitsThenPlaysThenIsOverHoldingItsRecordThenPlaysItsRematch() {
        var host = MatchHost(name: "m", mode: .duel, settings: .standard, seatWaitMs: 60_000)
        #expect(host.lifecycle.phase == .waiting && host.match == nil && host.lastFinished == nil)
        _ = host.handle(.join(name: "ann", token: MatchHostTests.annToken, connection: 1, seat: nil), at: Self.at(1_000),
                        seeds: MatchHostTests.noDeal)
        #expect(host.phase == .waiting)
        let dealt = host.handle(.join(name: "bob", token: MatchHostTests.bobToken, connection: 2, seat: nil), at: Self.at(2_000)) { 7 }
        guard case .playing(let playing) = host.lifecycle else { return #expect(Bool(false), "\(host.phase)") }
        #expect(playing.seed == 7 && dealt.finished == nil)

        let resigned = host.handle(.act(.resign, by: .first), at: Self.at(3_000), seeds: MatchHostTests.noDeal)
        guard case .over(let ended, let finished) = host.lifecycle else { return #expect(Bool(false), "\(host.phase)") }
        #expect(ended.isOver && finished.game == 1 && finished.commitment == SeedCommitment.commitment(for: 7))
        #expect(finished.seats.map(\.name) == ["ann", "bob"] && finished.durationMs == 1_000)
        #expect(resigned.finished == finished, "the input that ended the game carries its record")
        #expect(host.lastFinished == finished)

        // Asking for a rematch changes the game that is over, and the stage keeps its record;
        // no later input carries it again.
        let asked = host.handle(.act(.rematch, by: .first), at: Self.at(3_500), seeds: MatchHostTests.noDeal)
        #expect(asked.finished == nil && host.lifecycle.finished == finished)
        #expect(host.match?.rematchAsked == [.first])
        let agreed = host.handle(.act(.rematch, by: .second), at: Self.at(4_000)) { 8 }
        guard case .playing(let rematch) = host.lifecycle else { return #expect(Bool(false), "\(host.phase)") }
        #expect(rematch.seed == 8 && host.game == 2 && agreed.finished == nil && host.lastFinished == nil)
    }

    /// A game that ends inside a held claim's deciding (its holder resigned behind it) is
    /// carried out by the input that decided it, as any other end is.
    @Test func aGameEndedByAnActionThatWaitedBehindAHeldClaimIsInTheOutputThatEndedIt() {
        var host = MatchHostTests.duel()
        let lag = ClaimLag(capMs: 200, roundTripMs: [1, 160])
        let held = host.act(.claim, by: .first, at: Self.at(3_000), lag: lag, id: .int(1), seeds: MatchHostTests.noDeal)
        let queued = host.act(.resign, by: .first, at: Self.at(3_010), lag: lag, id: .int(2), seeds: MatchHostTests.noDeal)
        #expect(held.reply == .held && queued.reply == .held && queued.finished == nil && host.phase == .playing)
        let decided = host.advance(to: Self.at(3_159), seeds: MatchHostTests.noDeal)
        guard case .over(_, let finished) = host.lifecycle else { return #expect(Bool(false), "\(host.phase)") }
        #expect(decided.finished == finished && finished.result.reason == .resigned)
    }

    /// `changeGame` changes the game of whichever stage holds one, where it lies, and leaves the
    /// stage and its record as they were; before the first deal there is nothing to change.
    @Test func changingTheGameInPlaceKeepsTheStageAndItsRecord() {
        var waiting = MatchLifecycle.waiting
        #expect(waiting.changeGame { _ in 1 } == nil)
        #expect(waiting.phase == .waiting && waiting.match == nil && waiting.nextDeadline == nil)

        var host = MatchHostTests.duel()
        var playing = host.lifecycle
        #expect(playing.nextDeadline == nil, "no window is open yet")
        let claimed = playing.changeGame { game in game.apply(.claim, by: .first, at: Self.at(3_000)).refusal == nil }
        #expect(claimed == true && playing.phase == .playing)
        #expect(playing.nextDeadline != nil && playing.nextDeadline == playing.match?.nextDeadline, "the claim's window stayed in the stage")
        #expect(host.lifecycle.nextDeadline == nil, "the host's own copy did not change")

        _ = host.handle(.act(.resign, by: .first), at: Self.at(4_000), seeds: MatchHostTests.noDeal)
        guard case .over(_, let finished) = host.lifecycle else { return #expect(Bool(false), "\(host.phase)") }
        var over = host.lifecycle
        let asked = over.changeGame { game in game.apply(.rematch, by: .second, at: Self.at(4_500)).refusal == nil }
        #expect(asked == true && over.phase == .over && over.finished == finished)
        #expect(over.match?.rematchAsked == [.second])
    }
}
