@testable import SetServer
import SetRules
import SetWire
import Testing

/// Issue 45, item 1: a claim that says which event its sender had seen (`seen`) is judged by that
/// fact, not by a round-trip estimate: one made after its sender saw the rival's set taken is for
/// the new table however quickly it follows, and one made before is for the table already taken.
@Suite struct ClaimSeenTests {
    static func at(_ milliseconds: Int64) -> Instant { Instant(milliseconds: milliseconds) }

    /// A duel of `variant` on the standard rules, both seated, its first game dealt.
    static func duel(_ variant: Variant) -> MatchHost {
        var host = MatchHost(name: "m", mode: .duel, variant: variant, settings: .standard, seatWaitMs: 60_000)
        _ = host.handle(.join(name: "ann", token: MatchHostTests.annToken, connection: 1, seat: nil), at: at(1_000),
                        seeds: MatchHostTests.noDeal)
        _ = host.handle(.join(name: "bob", token: MatchHostTests.bobToken, connection: 2, seat: nil), at: at(2_000)) { 7 }
        return host
    }

    /// Ann takes a window (held for bob's credit, then decided) and her set: the table is free and
    /// new when this returns, at `host`'s clock `now`.
    static func annTakesASet(_ host: inout MatchHost, lag: ClaimLag, from start: Int64) throws -> Int64 {
        _ = host.act(.claim, by: .first, at: at(start), lag: lag, seen: host.seq, seeds: MatchHostTests.noDeal)
        let decided = start + lag.credit(.second)
        _ = host.advance(to: at(decided), seeds: MatchHostTests.noDeal)
        #expect(host.match?.window?.holder == .first)
        let trio = try #require(SetLogic.firstSet(in: host.match!.table))
        for card in trio { _ = host.act(.select(card), by: .first, at: at(decided), lag: lag, seeds: MatchHostTests.noDeal) }
        #expect(host.match?.window == nil)
        return decided
    }

    /// The scripted client: bob claims in the very millisecond ann's set was taken, after
    /// he received her `set_taken` (and a pong), while his pongs make him look 30 ms away. By the
    /// round-trip estimate his claim was pressed before her window opened; by what he saw, it is
    /// for the new table, and it opens his window. Without `seen` the estimate still decides.
    @Test func aClaimThatSawTheRivalsSetTakenIsForTheNewTable() throws {
        let lag = ClaimLag(capMs: 200, roundTripMs: [1, 30])
        var host = Self.duel(.classic)
        let now = try Self.annTakesASet(&host, lag: lag, from: 3_000)
        var guessed = host
        let fresh = host.act(.claim, by: .second, at: Self.at(now), lag: lag, seen: host.seq, id: .int(9), seeds: MatchHostTests.noDeal)
        #expect(fresh.reply == .accepted(seq: host.seq) && host.match?.window?.holder == .second, "\(fresh.reply)")
        let estimated = guessed.act(.claim, by: .second, at: Self.at(now), lag: lag, id: .int(9), seeds: MatchHostTests.noDeal)
        guard case .refused(let error) = estimated.reply else { return #expect(Bool(false), "\(estimated.reply)") }
        #expect(error.code == .claimTaken)
    }

    /// A claim whose `seen` is before the rival's `window_opened` was made for the table she took:
    /// it is refused naming her window, even when the round-trip estimate would call it fresh.
    @Test func aClaimThatHadNotSeenTheRivalsWindowIsForTheTakenTable() throws {
        let lag = ClaimLag(capMs: 200, roundTripMs: [1, 1])
        var host = Self.duel(.classic)
        let before = host.seq
        let now = try Self.annTakesASet(&host, lag: lag, from: 3_000)
        let stale = host.act(.claim, by: .second, at: Self.at(now + 500), lag: lag, seen: before, id: .int(9),
                             seeds: MatchHostTests.noDeal)
        guard case .refused(let error) = stale.reply else { return #expect(Bool(false), "\(stale.reply)") }
        #expect(error.code == .claimTaken && error.details["holder"] == .int(0))
        #expect(stale.messages.isEmpty && stale.journal.isEmpty && host.match?.window == nil)
    }

    /// Bob answers pings 300 ms late (credited the whole 200 ms cap) but is near: he claims the
    /// new table 51 ms after ann's window opened, saying he saw it. A real 300 ms round trip could
    /// not have shown it to him yet: he forfeits his banked credit, his claim counts on arrival,
    /// and ann's, sent earlier, takes the window. An honest far player claims a real round trip later and keeps his credit.
    @Test func aClaimThatSawTheTableSoonerThanItsRoundTripAllowsIsCreditedNothing() throws {
        let feigned = ClaimLag(capMs: 200, roundTripMs: [1, 300])
        var cheat = Self.duel(.classic)
        let opened = try Self.annTakesASet(&cheat, lag: feigned, from: 3_000)
        _ = cheat.act(.claim, by: .first, at: Self.at(opened + 41), lag: feigned, seen: cheat.seq, id: .int(1), seeds: MatchHostTests.noDeal)
        let quick = cheat.act(.claim, by: .second, at: Self.at(opened + 51), lag: feigned, seen: cheat.seq, id: .int(2),
                              seeds: MatchHostTests.noDeal)
        guard case .refused(let error) = quick.reply else { return #expect(Bool(false), "\(quick.reply)") }
        #expect(error.code == .claimTaken && cheat.match?.window?.holder == .first)
        // Bob had banked 2 (his start and ann's first window); forfeited to 0, then ann's window earned 1.
        #expect(cheat.races.ledger.balance == [-1, 1], "the windows bob banked are forfeited: \(cheat.races.ledger.balance)")

        let far = ClaimLag(capMs: 200, roundTripMs: [1, 160])
        var honest = Self.duel(.classic)
        let shown = try Self.annTakesASet(&honest, lag: far, from: 3_000)
        _ = honest.act(.claim, by: .first, at: Self.at(shown + 41), lag: far, seen: honest.seq, id: .int(1), seeds: MatchHostTests.noDeal)
        // Sent ≈ shown + 200 − 160 = shown + 40, after the table reached him: before ann's.
        let fair = honest.act(.claim, by: .second, at: Self.at(shown + 200), lag: far, seen: honest.seq, id: .int(2), seeds: MatchHostTests.noDeal)
        #expect(fair.reply == .accepted(seq: honest.seq) && honest.match?.window?.holder == .second, "\(fair.reply)")
    }

    /// A claim that saw a window open arrived a whole round trip after it at least: its gap bounds
    /// the seat's credit from then on, whatever its pongs say; the smallest of the last 8 counts.
    @Test func aClaimsGapAfterTheWindowItSawBoundsItsSeatsCredit() throws {
        let feigned = ClaimLag(capMs: 200, roundTripMs: [1, 300])
        var host = Self.duel(.classic)
        let opened = try Self.annTakesASet(&host, lag: feigned, from: 3_000)
        _ = host.act(.claim, by: .second, at: Self.at(opened + 70), lag: feigned, seen: host.seq, seeds: MatchHostTests.noDeal)
        #expect(host.races.claimGapsMs == [[], [70]])
        #expect(host.races.bounded(feigned).credit(.second) == 70 && host.races.bounded(feigned).credit(.first) == 1)
        var gaps = RaceState(seats: 2)
        for ms in Int64(1)...9 { gaps.noteGap(.first, 100 * ms) }
        #expect(gaps.claimGapsMs[0] == (2...9).map { 100 * $0 } && gaps.bounded(ClaimLag(capMs: 200, roundTripMs: [500, 0])).credit(.first) == 200)
        #expect(gaps.bounded(ClaimLag(capMs: 500, roundTripMs: [500, 0])).credit(.first) == 200)
    }

    /// The load bots' duel, scripted: two instant players take turns by table change, each claiming
    /// the moment it has seen the last event, in one millisecond, to the end of a Junior, a
    /// Set-Chain, an UltraSet and a classic game. No request of theirs is refused.
    @Test(arguments: [Variant.junior, .chain, .ultra, .classic])
    func instantPlayersTakingTurnsAreNeverRefused(_ variant: Variant) {
        let lag = ClaimLag(capMs: 200, roundTripMs: [0, 0])
        var host = Self.duel(variant)
        var refusals: [String] = []
        var turn = Seat.first
        var steps = 0
        while host.phase == .playing, steps < 400, let match = host.match {
            steps += 1
            let now = Self.at(3_000)
            let pick = variant.firstCombination(table: match.table, chain: match.chain)
            if let window = match.window {
                // A deal's grace or a second chance: its holder takes a set if there is one, as the bots do.
                for action in pick.map({ $0.map(Action.select) }) ?? [.pass] {
                    let done = host.act(action, by: window.holder, at: now, lag: lag, seeds: MatchHostTests.noDeal)
                    if case .refused(let error) = done.reply { refusals.append("\(action): \(error.code.rawValue)") }
                }
                continue
            }
            guard let pick else {
                let dealt = host.act(.deal, by: turn, at: now, lag: lag, seeds: MatchHostTests.noDeal)
                if case .refused(let error) = dealt.reply { refusals.append("deal: \(error.code.rawValue)") }
                continue
            }
            let claimed = host.act(.claim, by: turn, at: now, lag: lag, seen: host.seq, seeds: MatchHostTests.noDeal)
            if case .refused(let error) = claimed.reply { refusals.append("claim by \(turn): \(error.code.rawValue)"); break }
            for card in pick {
                let picked = host.act(.select(card), by: turn, at: now, lag: lag, seeds: MatchHostTests.noDeal)
                if case .refused(let error) = picked.reply { refusals.append("select: \(error.code.rawValue)") }
            }
            turn = turn.other
        }
        #expect(refusals.isEmpty, "\(variant): \(refusals)")
        #expect(host.phase == .over, "\(variant) did not end in \(steps) steps")
    }
}
