@testable import SetServer
import SetRules
import SetWire
import Testing

/// Claim races under lag compensation, decided by the host from given round trips and arrival
/// instants: no socket, no clock but the instants passed in.
@Suite struct ClaimRaceTests {
    static func at(_ milliseconds: Int64) -> Instant { Instant(milliseconds: milliseconds) }

    /// Ann near (1 ms round trip), bob far (160 ms), cap 200.
    static let lag = ClaimLag(capMs: 200, roundTripMs: [1, 160])

    func windowHolder(_ host: MatchHost) -> Seat? { host.match?.window?.holder }

    func opened(_ output: HostOutput<some Equatable>) -> Window? {
        for message in output.messages {
            if case .event(let event, _) = message, case .rules(.windowOpened(let window)) = event.body { return window }
        }
        return nil
    }

    @Test func theCreditIsTheRoundTripUpToTheCap() {
        #expect(Self.lag.credit(.first) == 1 && Self.lag.credit(.second) == 160)
        #expect(ClaimLag(capMs: 100, roundTripMs: [1, 460]).credit(.second) == 100)
        #expect(ClaimLag.off.credit(.second) == 0)
    }

    /// The credit is the median of the recent round trips: a jittery link is credited its usual
    /// round trip, not its luckiest one, and one slow pong does not move it.
    @Test func theRoundTripEstimateIsTheMedianOfTheRecentSamples() {
        var trips = RoundTrips()
        #expect(trips.medianMs == 0)
        for (index, sample) in [Int64(150), 190, 130, 170, 900].enumerated() {
            let sent = Self.at(Int64(index + 1) * 2_000)
            trips.pinged(at: sent)
            let answered = trips.answered(time: sent.milliseconds, at: sent.adding(sample))
            #expect(answered)
        }
        #expect(trips.medianMs == 170 && trips.lowMs == 130)
        let sent = Self.at(20_000)
        trips.pinged(at: sent)
        _ = trips.answered(time: sent.milliseconds, at: sent.adding(120))
        #expect(trips.medianMs == 150, "the lower middle of six")
    }

    @Test func aNearClaimIsHeldForTheFarSeatsRoundTripAndThenOpensItsWindow() {
        var host = MatchHostTests.duel()
        let held = host.act(.claim, by: .first, at: Self.at(3_000), lag: Self.lag, id: .int(5), seeds: MatchHostTests.noDeal)
        #expect(held.reply == .held && held.messages.isEmpty && held.journal.isEmpty)
        // Sent at 2 999 by its own table's clock; bob could prove an earlier send until 2 999 + 160.
        #expect(host.nextDeadline == Self.at(3_159))
        #expect(host.advance(to: Self.at(3_158), seeds: MatchHostTests.noDeal).messages.isEmpty)
        let decided = host.advance(to: Self.at(3_159), seeds: MatchHostTests.noDeal)
        #expect(opened(decided)?.holder == .first)
        #expect(decided.messages.contains(.answer(.ack(id: .int(5), seq: host.seq), to: .first)))
        #expect(decided.journal.contains(.race(RaceDecision(winner: RaceEntry(seat: .first, arrivedAt: Self.at(3_000), creditMs: 1),
                                                            loser: nil, capMs: 200), at: Self.at(3_159))))
        #expect(host.nextDeadline == host.match?.window?.deadline)
    }

    @Test func theFarClaimWinsWhenItWasSentEarlierByItsOwnClock() {
        var host = MatchHostTests.duel()
        _ = host.act(.claim, by: .first, at: Self.at(3_000), lag: Self.lag, id: .int(5), seeds: MatchHostTests.noDeal)
        // Bob's arrives 150 ms later but left him 10 ms earlier than ann's left her.
        let bob = host.act(.claim, by: .second, at: Self.at(3_150), lag: Self.lag, seeds: MatchHostTests.noDeal)
        #expect(bob.reply == .accepted(seq: host.seq))
        #expect(windowHolder(host) == .second)
        let lost = WireError(RuleRefusal.claimTaken(holder: .second, leadMs: 9), playerNames: ["ann", "bob"])
        #expect(bob.messages.contains(.answer(.error(lost, id: .int(5)), to: .first)))
        #expect(bob.journal.last == .race(RaceDecision(winner: RaceEntry(seat: .second, arrivedAt: Self.at(3_150), creditMs: 160),
                                                       loser: RaceEntry(seat: .first, arrivedAt: Self.at(3_000), creditMs: 1),
                                                       capMs: 200), at: Self.at(3_150)))
    }

    @Test func aTieGoesToTheFirstReceived() {
        var host = MatchHostTests.duel()
        _ = host.act(.claim, by: .first, at: Self.at(3_000), lag: Self.lag, seeds: MatchHostTests.noDeal)
        // Estimated send 3 159 − 160 = 2 999: the same as ann's.
        let bob = host.act(.claim, by: .second, at: Self.at(3_159), lag: Self.lag, seeds: MatchHostTests.noDeal)
        guard case .refused(let error) = bob.reply else { return #expect(Bool(false), "bob won a tie") }
        #expect(error.code == .claimTaken && error.details["leadMs"] == .int(0))
        #expect(windowHolder(host) == .first)
    }

    @Test func aFarClaimIsDecidedOnArrivalAndALaterNearOneIsToldItsMarginInSendTime() {
        var host = MatchHostTests.duel()
        let bob = host.act(.claim, by: .second, at: Self.at(3_000), lag: Self.lag, seeds: MatchHostTests.noDeal)
        #expect(bob.reply == .accepted(seq: host.seq), "nobody can have sent earlier: no hold")
        #expect(!bob.journal.contains { if case .race = $0 { true } else { false } }, "no race to explain, no record")
        let ann = host.act(.claim, by: .first, at: Self.at(3_100), lag: Self.lag, seeds: MatchHostTests.noDeal)
        // Bob's counts from 2 840, ann's from 3 099: 259 ms later.
        guard case .refused(let error) = ann.reply else { return #expect(Bool(false), "ann took a taken window") }
        #expect(error.details["leadMs"] == .int(259))
        #expect(ann.journal.contains { if case .race(let race, _) = $0 { race.marginMs == 259 } else { false } })
    }

    @Test func theHoldersOwnActionsBehindItsHeldClaimWaitAndAreAnsweredInOrder() {
        var host = MatchHostTests.duel()
        let cards = Array(host.match!.table.prefix(2))
        _ = host.act(.claim, by: .first, at: Self.at(3_000), lag: Self.lag, id: .int(5), seeds: MatchHostTests.noDeal)
        for (index, card) in cards.enumerated() {
            let queued = host.act(.select(card), by: .first, at: Self.at(3_010 + Int64(index)), lag: Self.lag, id: .int(6 + Int64(index)),
                                  seeds: MatchHostTests.noDeal)
            #expect(queued.reply == .held && queued.messages.isEmpty)
        }
        let decided = host.advance(to: Self.at(3_159), seeds: MatchHostTests.noDeal)
        #expect(host.match?.selection == cards)
        let answers = decided.messages.compactMap { if case .answer(let message, let seat) = $0 { (message, seat) } else { nil } }
        guard answers.count == 3, case .ack(.int(5), _) = answers[0].0, case .ack(.int(6), _) = answers[1].0, case .ack(.int(7), _) = answers[2].0 else {
            return #expect(Bool(false), "\(answers)")
        }
        #expect(answers.allSatisfy { $0.1 == .first })
    }

    /// A duel dealt as `MatchHostTests.duel()` deals it, under `settings`.
    static func duel(_ settings: RuleSettings) -> MatchHost {
        var host = MatchHost(name: "m", mode: .duel, settings: settings, seatWaitMs: 60_000)
        _ = host.handle(.join(name: "ann", token: MatchHostTests.annToken, connection: 1, seat: nil), at: at(1_000),
                        seeds: MatchHostTests.noDeal)
        _ = host.handle(.join(name: "bob", token: MatchHostTests.bobToken, connection: 2, seat: nil), at: at(2_000)) { 7 }
        return host
    }

    /// Issue 32: a rival whose hint was answered only once a held claim was decided learned of
    /// the hold from a ping answered first, claimed, and with a feigned distance took the window.
    /// Whatever the rival sends during a hold is answered exactly as if no claim were held.
    @Test func theRivalsRequestsDuringAHoldAreAnsweredAsIfNoClaimWereHeld() {
        var settings = RuleSettings.standard
        settings.hintsInDuel = true
        let card = Self.duel(settings).match!.table[0]
        for action in [Action.hint, .select(card), .pass, .deal, .resign] {
            var holding = Self.duel(settings)
            var plain = Self.duel(settings)
            let held = holding.act(.claim, by: .first, at: Self.at(3_000), lag: Self.lag, id: .int(1), seeds: MatchHostTests.noDeal)
            #expect(held.reply == .held)
            let during = holding.act(action, by: .second, at: Self.at(3_020), lag: Self.lag, id: .int(2), seeds: MatchHostTests.noDeal)
            let without = plain.act(action, by: .second, at: Self.at(3_020), lag: Self.lag, id: .int(2), seeds: MatchHostTests.noDeal)
            // What reaches the rival (a resignation also answers ann's claim, which only she hears).
            var seen = during
            seen.messages.removeAll { if case .answer(_, .first) = $0 { true } else { false } }
            #expect(seen == without, "\(action) was answered differently during a hold")
            #expect(during.reply != .held, "\(action) waited behind the rival's claim")
        }
    }

    /// A rival who resigns while a claim is held ends the game: the claim is answered at once (as
    /// a claim after the end is), not left to open a window in a game dealt after it.
    @Test func aGameTheRivalEndsDuringAHoldAnswersTheHeldClaimAtOnce() {
        var host = MatchHostTests.duel()
        _ = host.act(.claim, by: .first, at: Self.at(3_000), lag: Self.lag, id: .int(1), seeds: MatchHostTests.noDeal)
        let resigned = host.act(.resign, by: .second, at: Self.at(3_020), lag: Self.lag, id: .int(2), seeds: MatchHostTests.noDeal)
        #expect(resigned.reply == .accepted(seq: host.seq) && host.phase == .over && host.races.heldClaim == nil)
        let answers = resigned.messages.compactMap { if case .answer(.error(_, let id), let seat) = $0 { (id, seat) } else { nil } }
        #expect(answers.count == 1 && answers.first?.0 == .int(1) && answers.first?.1 == .first, "\(resigned.messages)")
    }

    /// Bob, 160 ms away, presses "Set!" before ann's window can have reached him; by the time his
    /// claim arrives she has taken her set and the next table is free. His claim was for her
    /// table: it is refused as a lost race, not given a window on a table he has not seen. One he
    /// sends after he could have seen her window is a claim like any other.
    @Test func aClaimPressedBeforeTheRivalsWindowOpenedIsRefusedEvenOnceThatWindowClosed() throws {
        var host = MatchHostTests.duel()
        _ = host.act(.claim, by: .first, at: Self.at(3_000), lag: Self.lag, seeds: MatchHostTests.noDeal)
        _ = host.advance(to: Self.at(3_159), seeds: MatchHostTests.noDeal)
        let trio = try #require(SetLogic.firstSet(in: host.match!.table))
        for (index, card) in trio.enumerated() {
            _ = host.act(.select(card), by: .first, at: Self.at(3_160 + Int64(index)), lag: Self.lag, seeds: MatchHostTests.noDeal)
        }
        #expect(host.match?.window == nil)
        // Sent ≈ 3 250 − 160 = 3 090, before ann's window opened at 3 159.
        let stale = host.act(.claim, by: .second, at: Self.at(3_250), lag: Self.lag, id: .int(9), seeds: MatchHostTests.noDeal)
        guard case .refused(let error) = stale.reply else { return #expect(Bool(false), "\(stale.reply)") }
        #expect(error.code == .claimTaken && error.details["holder"] == .int(0) && error.details["leadMs"] == .int(91))
        #expect(stale.messages.isEmpty && stale.journal.isEmpty && host.match?.window == nil && host.races.heldClaim == nil)
        // Sent ≈ 3 330 − 160 = 3 170: after her window opened, so for this table.
        let fresh = host.act(.claim, by: .second, at: Self.at(3_330), lag: Self.lag, seeds: MatchHostTests.noDeal)
        #expect(fresh.reply == .accepted(seq: host.seq) && windowHolder(host) == .second)
    }

    /// One close race for a free table: `first` claims at `start`, `second` `afterMs` later (the
    /// clock's timers run first, as the server runs them); returns who took the window, and
    /// leaves the table free again (the window passed, the second chance passed).
    func race(_ host: inout MatchHost, first: Seat, second: Seat, afterMs: Int64, at start: Int64, lag: ClaimLag) -> Seat? {
        _ = host.act(.claim, by: first, at: Self.at(start), lag: lag, seeds: MatchHostTests.noDeal)
        _ = host.advance(to: Self.at(start + afterMs), seeds: MatchHostTests.noDeal)
        _ = host.act(.claim, by: second, at: Self.at(start + afterMs), lag: lag, seeds: MatchHostTests.noDeal)
        _ = host.advance(to: Self.at(start + 400), seeds: MatchHostTests.noDeal)
        let holder = windowHolder(host)
        if let holder {
            _ = host.act(.pass, by: holder, at: Self.at(start + 500), lag: lag, seeds: MatchHostTests.noDeal)
            _ = host.act(.pass, by: holder.other, at: Self.at(start + 510), lag: lag, seeds: MatchHostTests.noDeal)
        }
        #expect(host.match?.window == nil && host.races.heldClaim == nil)
        return holder
    }

    /// Ann is on loopback but answers pings late, so she is credited 200 ms; bob is honest and as
    /// quick: in turn ann claims 50 ms before him and 50 ms after. With a credit every race could
    /// use she took all twelve windows; each window she takes now spends her credit and each one
    /// he takes earns it back, so she takes the six she was quicker for, her fair share.
    @Test func aFeignedDistanceWinsNoMoreThanItsShareAgainstAnHonestPlayerAsQuick() {
        var host = MatchHostTests.duel()
        let feigned = ClaimLag(capMs: 200, roundTripMs: [200, 1])
        var won = 0
        for race in 0..<12 {
            let start = 10_000 + Int64(race) * 1_000
            let quicker = race.isMultiple(of: 2)
            let holder = quicker ? self.race(&host, first: .first, second: .second, afterMs: 50, at: start, lag: feigned)
                                 : self.race(&host, first: .second, second: .first, afterMs: 50, at: start, lag: feigned)
            if holder == .first { won += 1 }
        }
        #expect(won == 6)
    }

    /// Bob really is 160 ms away and as quick as ann: in turn his claim leaves him 50 ms before
    /// hers and 50 ms after. The quota never costs him a race he was quicker for.
    @Test func anHonestFarPlayerAsQuickKeepsTheRacesHeWasQuickerFor() {
        var host = MatchHostTests.duel()
        var won = 0
        for race in 0..<12 {
            let start = 10_000 + Int64(race) * 1_000
            // Ann's claim counts from start − 1; bob's from his arrival − 160.
            let holder = self.race(&host, first: .first, second: .second, afterMs: race.isMultiple(of: 2) ? 109 : 209, at: start, lag: Self.lag)
            if holder == .second { won += 1 }
        }
        #expect(won == 6)
    }

    /// The quota itself: a claim window a seat opens spends one window of credit, one its rival
    /// opens earns one back, and the balance stays within its limit.
    @Test func theLedgerSpendsCreditOnWindowsTakenAndEarnsItOnWindowsLost() {
        var ledger = RaceLedger(seats: 2)
        #expect(ledger.hasCredit(.first) && ledger.hasCredit(.second))
        ledger.opened(by: .first)
        #expect(ledger.balance == [0, 2])
        #expect(!ledger.hasCredit(.first) && ledger.limiting(Self.lag).roundTripMs == [0, 160])
        ledger.opened(by: .second)
        #expect(ledger.balance == [1, 1] && ledger.limiting(Self.lag) == Self.lag)
        for _ in 0..<20 { ledger.opened(by: .first) }
        #expect(ledger.balance == [-RaceLedger.limit, RaceLedger.limit])
        #expect(ledger.limiting(.off) == .off)
    }

    @Test func compensationOffDecidesOnArrivalAsBefore() {
        var host = MatchHostTests.duel()
        var plain = MatchHostTests.duel()
        let off = host.act(.claim, by: .first, at: Self.at(3_000), lag: .off, seeds: MatchHostTests.noDeal)
        #expect(off == plain.handle(.act(.claim, by: .first), at: Self.at(3_000), seeds: MatchHostTests.noDeal).replying { reply in
            if case .accepted(let seq) = reply { ActReply.accepted(seq: seq) } else { ActReply.held }
        })
        let late = host.act(.claim, by: .second, at: Self.at(3_100), lag: .off, seeds: MatchHostTests.noDeal)
        guard case .refused(let error) = late.reply else { return #expect(Bool(false)) }
        #expect(error.details["leadMs"] == .int(100) && late.journal.isEmpty)
    }

    /// A player on loopback who answers every ping 300 ms late looks 300 ms away: its claims are
    /// credited the cap and no more, so it gains at most the cap over its honest self.
    @Test func delayingPongsGainsAtMostTheCap() {
        var trips = RoundTrips()
        for second in 1...8 {
            let sent = Self.at(Int64(second) * 2_000)
            trips.pinged(at: sent)
            let answered = trips.answered(time: sent.milliseconds, at: sent.adding(301))
            #expect(answered)
        }
        #expect(trips.lowMs == 301)
        let cheat = ClaimLag(capMs: 200, roundTripMs: [trips.lowMs, 1])
        #expect(cheat.credit(.first) == 200)
        // Both honest on loopback, the cheater's claim 250 ms late still loses; 199 ms late, it wins.
        var host = MatchHostTests.duel()
        _ = host.act(.claim, by: .second, at: Self.at(3_000), lag: cheat, seeds: MatchHostTests.noDeal)
        let lateBy250 = host.act(.claim, by: .first, at: Self.at(3_250), lag: cheat, seeds: MatchHostTests.noDeal)
        #expect(windowHolder(host) == .second, "a claim 250 ms late loses: the cap is 200")
        #expect(lateBy250.reply != .accepted(seq: host.seq))
        var again = MatchHostTests.duel()
        _ = again.act(.claim, by: .second, at: Self.at(3_000), lag: cheat, seeds: MatchHostTests.noDeal)
        _ = again.act(.claim, by: .first, at: Self.at(3_198), lag: cheat, seeds: MatchHostTests.noDeal)
        #expect(windowHolder(again) == .first, "within the cap the feigned distance wins")
    }

    @Test func aPongAnswersOnlyAPingTheServerSentAndNeverComesOutShorter() {
        var trips = RoundTrips()
        let unasked = trips.answered(time: 1_000, at: Self.at(1_000))
        #expect(!unasked, "no ping was sent")
        trips.pinged(at: Self.at(1_000))
        let invented = trips.answered(time: 1_050, at: Self.at(1_060))
        #expect(!invented, "a time the server never sent")
        let real = trips.answered(time: 1_000, at: Self.at(1_040))
        #expect(real)
        let twice = trips.answered(time: 1_000, at: Self.at(1_041))
        #expect(!twice, "answered once")
        #expect(trips.lowMs == 40 && trips.smoothedMs == 40)
    }

    @Test func aSeatLeavingWhileItsClaimIsHeldTakesTheWindowFirstAsWithoutCompensation() {
        var host = MatchHostTests.duel()
        _ = host.act(.claim, by: .first, at: Self.at(3_000), lag: Self.lag, seeds: MatchHostTests.noDeal)
        let left = host.leave(1, at: Self.at(3_050), seeds: MatchHostTests.noDeal)
        #expect(opened(left)?.holder == .first)
        #expect(host.races.heldClaim == nil && host.match?.window?.kind == .secondChance)
    }

    /// The door's bot left with a claim held and came back: once the second chance its leaving
    /// gave is over, its claims are held and decided as before, and the window it wins is its own.
    @Test func aSeatBackFromLeavingWithAHeldClaimClaimsAgain() {
        var host = MatchHostTests.duel()
        _ = host.act(.claim, by: .first, at: Self.at(3_000), lag: Self.lag, seeds: MatchHostTests.noDeal)
        _ = host.leave(1, at: Self.at(3_050), seeds: MatchHostTests.noDeal)
        _ = host.resume(.first, on: 3, at: Self.at(11_050))
        #expect(host.pausedAt == nil && host.match?.window?.kind == .secondChance)
        guard let chanceEnds = host.nextDeadline else {
            Issue.record("the second chance has no deadline")
            return
        }
        #expect(chanceEnds == Self.at(21_050), "its 10 s, counted from the end of the 8 s pause")
        _ = host.advance(to: chanceEnds, seeds: MatchHostTests.noDeal)
        #expect(host.match?.window == nil)
        let claimed = host.act(.claim, by: .first, at: Self.at(14_000), lag: Self.lag, seeds: MatchHostTests.noDeal)
        #expect(claimed.reply == .held, "bob, 160 ms away, could still have claimed first")
        guard let decideAt = host.nextDeadline else {
            Issue.record("a held claim with no deadline")
            return
        }
        let decided = host.advance(to: decideAt, seeds: MatchHostTests.noDeal)
        #expect(opened(decided)?.holder == .first && host.match?.window?.kind == .claim)
    }

    @Test func theJournalKeepsWhatDecidedARaceAndReplayExplainsIt() throws {
        let race = RaceDecision(winner: RaceEntry(seat: .second, arrivedAt: Self.at(3_150), creditMs: 160),
                                loser: RaceEntry(seat: .first, arrivedAt: Self.at(3_000), creditMs: 1), capMs: 200)
        let record = JournalRecord.race(race, at: Self.at(3_150))
        #expect(try JournalRecord.decode(Array(record.encoded().dropLast())) == record)
        #expect(String(decoding: record.encoded(), as: UTF8.self)
                == #"{"at":3150,"capMs":200,"loser":{"arrived":3000,"creditMs":1,"seat":0},"type":"race","winner":{"arrived":3150,"creditMs":160,"seat":1}}"# + "\n")
        #expect(ReplayText.describe(race, names: ["ann", "bob"])
                == "claim race (cap 200 ms): bob wins, arrived at 3150 ms, credited 160 ms, sent ≈ 2990 ms; "
                + "ann arrived at 3000 ms, credited 1 ms, sent ≈ 2999 ms, 9 ms later")
    }

    /// A journal with races replays to the same match: the records are notes, the claims are `act`s.
    @Test func aJournalWithRacesReplaysAsTheLiveHostPlayed() throws {
        var host = MatchHostTests.duel()
        var records: [JournalRecord] = [.header(name: "m", mode: .duel, rules: .standard),
            .seated(seat: .first, name: "ann", token: MatchHostTests.annToken, at: Self.at(1_000)),
            .seated(seat: .second, name: "bob", token: MatchHostTests.bobToken, at: Self.at(2_000)),
            .game(number: 1, seed: 7, commitment: SeedCommitment.commitment(for: 7), at: Self.at(2_000))]
        records += host.act(.claim, by: .first, at: Self.at(3_000), lag: Self.lag, seeds: MatchHostTests.noDeal).journal
        records += host.act(.claim, by: .second, at: Self.at(3_150), lag: Self.lag, seeds: MatchHostTests.noDeal).journal
        records += host.act(.claim, by: .first, at: Self.at(3_200), lag: Self.lag, seeds: MatchHostTests.noDeal).journal
        #expect(records.filter { if case .race = $0 { true } else { false } }.count == 2)
        var notes = 0
        let replayed = try JournalReplay.host(from: records, seatWaitMs: 60_000, races: { _, _ in notes += 1 })
        #expect(notes == 2 && replayed.match?.window == host.match?.window && replayed.seq == host.seq)
    }
}
