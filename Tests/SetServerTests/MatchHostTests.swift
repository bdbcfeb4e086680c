@testable import SetServer
import SetRules
import SetWire
import Testing

/// The match host as a value: an input in, the exact typed outputs out (events with who hears
/// them, journal records, the reply), with no server, socket or file anywhere.
@Suite struct MatchHostTests {
    static let annToken = String(repeating: "a", count: 32)
    static let bobToken = String(repeating: "b", count: 32)

    static func at(_ milliseconds: Int64) -> Instant { Instant(milliseconds: milliseconds) }

    static func event(_ seq: Int, at milliseconds: Int64, _ body: EventBody, to audience: Audience = .everyone) -> HostMessage {
        .event(WireEvent(match: "m", seq: seq, time: milliseconds, body: body), to: audience)
    }

    /// A game must not be dealt where this is the seed source.
    static func noDeal() -> UInt64 {
        Issue.record("a game was dealt")
        return 0
    }

    /// Ann and bob seated in duel "m", the game dealt from seed 7 at 2 s.
    static func duel() -> MatchHost {
        var host = MatchHost(name: "m", mode: .duel, settings: .standard, seatWaitMs: 60_000)
        _ = host.handle(.join(name: "ann", token: annToken, connection: 1, seat: nil), at: at(1_000), seeds: noDeal)
        _ = host.handle(.join(name: "bob", token: bobToken, connection: 2, seat: nil), at: at(2_000)) { 7 }
        return host
    }

    @Test func aSeatIsJournaledWithItsTokenBeforeAnyoneHearsOfIt() {
        var host = MatchHost(name: "m", mode: .duel, settings: .standard, seatWaitMs: 60_000)
        let ann = host.handle(.join(name: "ann", token: Self.annToken, connection: 1, seat: nil), at: Self.at(1_000), seeds: Self.noDeal)
        #expect(ann == HostOutput(messages: [Self.event(1, at: 1_000, .playerJoined(seat: .first, name: "ann"))],
                                  journal: [.seated(seat: .first, name: "ann", token: Self.annToken, at: Self.at(1_000))],
                                  syncJournal: true, reply: .seated(.first)))

        // The seat that completes the duel deals its first game: the seed is journaled with the
        // seat, and from now on the match is worth a file.
        let bob = host.handle(.join(name: "bob", token: Self.bobToken, connection: 2, seat: nil), at: Self.at(2_000)) { 7 }
        let dealt = Match(mode: .duel, seed: 7, at: Self.at(2_000))
        let commitment = SeedCommitment.commitment(for: 7)
        let start = GameStart(game: 1, table: dealt.table, deck: dealt.deck.count, scores: [0, 0], commitment: commitment)
        #expect(bob == HostOutput(
            messages: [Self.event(2, at: 2_000, .playerJoined(seat: .second, name: "bob")), Self.event(3, at: 2_000, .gameStarted(start))],
            journal: [.seated(seat: .second, name: "bob", token: Self.bobToken, at: Self.at(2_000)),
                      .game(number: 1, seed: 7, commitment: commitment, at: Self.at(2_000))],
            syncJournal: true, keepJournal: true, reply: .seated(.second)))

        let late = host.handle(.join(name: "cy", token: Self.annToken, connection: 3, seat: nil), at: Self.at(2_500), seeds: Self.noDeal)
        #expect(late.messages.isEmpty && late.journal.isEmpty)
        guard case .refused(let refusal) = late.reply else { return #expect(Bool(false), "a full match seated cy") }
        #expect(refusal.code == .matchFull)
    }

    @Test func anAcceptedActionIsNumberedJournaledAndAcknowledgedWithItsSeq() {
        var host = Self.duel()
        var rules = Match(mode: .duel, seed: 7, at: Self.at(2_000))
        let claim = host.handle(.act(.claim, by: .first), at: Self.at(3_000), seeds: Self.noDeal)
        let events = rules.apply(.claim, by: .first, at: Self.at(3_000)).events
        #expect(!events.isEmpty)
        #expect(claim == HostOutput(
            messages: events.enumerated().map { Self.event(4 + $0.offset, at: 3_000, .rules($0.element)) },
            journal: [.acted(seat: .first, action: .claim, seq: 3 + events.count, at: Self.at(3_000))],
            keepJournal: true, reply: .accepted(seq: 3 + events.count)))

        // The rules refuse bob's claim while ann holds the window: no event, nothing to journal.
        let refused = host.handle(.act(.claim, by: .second), at: Self.at(3_100), seeds: Self.noDeal)
        let refusal = rules.apply(.claim, by: .second, at: Self.at(3_100)).refusal
        #expect(refused == HostOutput(reply: .refused(WireError(refusal!, playerNames: ["ann", "bob"]))))
    }

    @Test func aTimerThatFiresIsJournaledAsATickAndStopsWhileTheJournalIsStalled() {
        var host = Self.duel()
        _ = host.handle(.act(.claim, by: .first), at: Self.at(3_000), seeds: Self.noDeal)
        let deadline = host.nextDeadline!
        #expect(host.handle(.timers, at: deadline.adding(-1), seeds: Self.noDeal) == HostOutput())
        let stalled = host.handle(.journalStalled, at: Self.at(4_000), seeds: Self.noDeal)
        #expect(stalled == HostOutput(messages: [.notice(MatchHost.journalStalled)], journal: [.stalled(at: Self.at(4_000))]))
        #expect(host.nextDeadline == nil && host.handle(.timers, at: deadline, seeds: Self.noDeal) == HostOutput())
        #expect(host.handle(.act(.pass, by: .first), at: deadline, seeds: Self.noDeal) == HostOutput(reply: .refused(MatchHost.journalStalled)))

        // Writes work again: the match goes on where it stood, its windows moved on by the stall.
        let works = host.handle(.journalWorks, at: Self.at(6_000), seeds: Self.noDeal)
        let seq = host.seq
        guard case .event(let resumed, .everyone) = works.messages.first, case .resumed(let window, _) = resumed.body else {
            return #expect(Bool(false), "no resumed event: \(works.messages)")
        }
        #expect(works.journal == [.unstalled(seq: seq, at: Self.at(6_000))] && works.syncJournal && resumed.seq == seq)
        #expect(window?.deadline == deadline.adding(2_000) && host.nextDeadline == window?.deadline)
        let fired = host.handle(.timers, at: window!.deadline, seeds: Self.noDeal)
        #expect(!fired.messages.isEmpty && fired.journal == [.tick(seq: host.seq, at: window!.deadline)])
    }

    @Test func aPaidHintsCardsGoToItsPayerAloneAndTheRestHearItWithout() {
        var settings = RuleSettings.standard
        settings.hintsInDuel = true
        var host = MatchHost(name: "m", mode: .duel, settings: settings, seatWaitMs: 60_000)
        _ = host.handle(.join(name: "ann", token: Self.annToken, connection: 1, seat: nil), at: Self.at(1_000), seeds: Self.noDeal)
        _ = host.handle(.join(name: "bob", token: Self.bobToken, connection: 2, seat: nil), at: Self.at(2_000)) { 7 }
        let hint = host.handle(.act(.hint, by: .second), at: Self.at(3_000), seeds: Self.noDeal)
        guard case .hint(let told, to: .second) = hint.messages.last, case .rules(.hintShown(.second, let cards, let cost, let score)) = told.body else {
            return #expect(Bool(false), "no hint for its payer: \(hint.messages)")
        }
        #expect(cards.count == 3 && SetLogic.isSet(cards))
        let others = Self.event(told.seq, at: 3_000, .rules(.hintShown(seat: .second, cards: [], cost: cost, score: score)),
                                          to: .everyoneBut(.second))
        #expect(hint.messages.suffix(2) == [others, .hint(told, to: .second)])
        #expect(hint.journal == [.acted(seat: .second, action: .hint, seq: told.seq, at: Self.at(3_000))])
    }

    @Test func comingAndGoingAreFactsTheJournalKeepsWhateverTheDiskSays() {
        var host = Self.duel()
        let away = host.handle(.leave(2), at: Self.at(3_000), seeds: Self.noDeal)
        #expect(away == HostOutput(messages: [Self.event(4, at: 3_000, .presence(seat: .second, present: false, forfeitAt: 63_000))],
                                   journal: [.away(seat: .second, at: Self.at(3_000))], isFact: true))
        #expect(host.pausedAt == Self.at(3_000) && host.seats[1]?.connection == nil && host.seats[1]?.absentSince == Self.at(3_000))

        let back = host.handle(.resume(.second, connection: 5), at: Self.at(4_000), seeds: Self.noDeal)
        let table = Match(mode: .duel, seed: 7, at: Self.at(2_000)).tableChangedAt.adding(1_000)
        #expect(back == HostOutput(
            messages: [Self.event(5, at: 4_000, .presence(seat: .second, present: true, forfeitAt: nil)),
                       Self.event(6, at: 4_000, .resumed(window: nil, tableChangedAt: table.milliseconds))],
            journal: [.back(seat: .second, at: Self.at(4_000))], isFact: true, reply: .resumed(replaced: nil)))

        // Spectators are a count here; an announcement is numbered and journaled like an event.
        let watched = host.handle(.spectatorCame, at: Self.at(5_000), seeds: Self.noDeal)
        #expect(watched == HostOutput(messages: [Self.event(7, at: 5_000, .spectators(count: 1))],
                                      journal: [.watchers(count: 1, seq: 7, at: Self.at(5_000))], isFact: true))
        let soon = host.handle(.spectatorLeft, at: Self.at(5_100), seeds: Self.noDeal)
        #expect(soon == HostOutput(isFact: true) && host.spectatorAnnouncementDue == Self.at(6_000))
    }

    /// Replay runs the same host on the recorded inputs: the journal a live host writes, fed
    /// back, makes exactly the messages the live host made, in order.
    @Test func aJournalReplayedMakesExactlyTheMessagesTheLiveHostMade() throws {
        var live = MatchHost(name: "m", mode: .duel, settings: .standard, seatWaitMs: 60_000)
        var journal: [JournalRecord] = [.header(name: "m", mode: .duel, rules: .standard)]
        var told: [HostMessage] = []
        func feed(_ input: HostInput, at milliseconds: Int64) {
            let output = live.handle(input, at: Self.at(milliseconds)) { 7 }
            journal += output.journal
            told += output.messages
        }
        feed(.join(name: "ann", token: Self.annToken, connection: 1, seat: nil), at: 1_000)
        feed(.join(name: "bob", token: Self.bobToken, connection: 2, seat: nil), at: 2_000)
        feed(.spectatorCame, at: 2_500)
        feed(.act(.claim, by: .first), at: 3_000)
        for card in try #require(live.match.flatMap { SetLogic.firstSet(in: $0.table) }) { feed(.act(.select(card), by: .first), at: 3_500) }
        feed(.act(.claim, by: .second), at: 4_000)
        feed(.timers, at: try #require(live.nextDeadline).milliseconds)
        feed(.leave(1), at: 20_000)
        feed(.journalStalled, at: 21_000)
        feed(.resume(.first, connection: 3), at: 22_000)
        feed(.journalWorks, at: 23_000)
        feed(.act(.resign, by: .second), at: 24_000)
        #expect(told.contains { if case .insight = $0 { true } else { false } })

        var replayed: [HostMessage] = []
        let host = try JournalReplay.host(from: journal, seatWaitMs: 60_000) { replayed += $0.messages }
        #expect(replayed == told)
        #expect(host.seq == live.seq && host.phase == .over && host.match?.result == live.match?.result)
    }
}
