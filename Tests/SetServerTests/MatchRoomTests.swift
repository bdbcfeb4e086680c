import SetNet
@testable import SetServer
import SetRules
import SetWire
import Testing

/// A journal in memory: the records a room wrote, and a switch that fails every write as a full
/// disk would.
final class MemoryJournal: JournalWriter {
    private(set) var records: [JournalRecord] = []
    private(set) var kept = false
    /// How many writes were asked, failed ones included.
    private(set) var writes = 0
    var failing = false

    func write(_ records: [JournalRecord], sync: Bool) -> Bool {
        writes += 1
        guard !failing else { return false }
        self.records += records
        return true
    }

    func keep() { kept = true }
    func sync(with together: inout SyncTogether) {}
    func close() {}
    func discard() {}
    var failure: String? { failing ? "the disk is full" : nil }
}

/// The room performs what its host returns: the journal first, then each message encoded once
/// for the connections that hold its audience. A change the journal cannot take is undone by the
/// room, refused with `journal_failed`, and the match stands still until the journal works.
@Suite struct MatchRoomTests {
    static func at(_ milliseconds: Int64) -> Instant { Instant(milliseconds: milliseconds) }

    /// Ann (connection 1) and bob (2) in duel "m", eve (9) watching; seeds count from 41.
    static func duel(_ journal: MemoryJournal, settings: RuleSettings = .standard, seeds: @escaping () -> UInt64 = { 41 }) -> MatchRoom {
        let room = MatchRoom(host: MatchHost(name: "m", mode: .duel, settings: settings, seatWaitMs: 60_000), journal: journal,
                             nextSeed: seeds)
        _ = room.join(name: "ann", token: MatchHostTests.annToken, connection: 1, seat: nil, at: at(1_000))
        _ = room.join(name: "bob", token: MatchHostTests.bobToken, connection: 2, seat: nil, at: at(2_000))
        _ = room.watch(9, at: at(2_000))
        return room
    }

    /// Who hears a delivery: the connections it names, and the room's spectators through its feed.
    static func heard(_ delivery: Delivery, in room: MatchRoom) -> [ConnectionID] {
        delivery.recipients + (delivery.spectatorsOf === room ? room.spectators : [])
    }

    /// What each delivery says, decoded.
    static func said(_ deliveries: [Delivery]) -> [ServerMessage] {
        deliveries.compactMap { try? ServerMessageCoding.decode(Array($0.bytes.dropLast())).get() }
    }

    @Test func theJournalIsWrittenFirstThenEachMessageIsEncodedOnceForItsAudience() {
        let journal = MemoryJournal()
        let room = Self.duel(journal)
        #expect(journal.kept, "a dealt duel is worth a file")
        #expect(journal.records.last == .watchers(count: 1, seq: 4, at: Self.at(2_000)))
        let fed = room.feed.end
        let claim = room.act(.claim, by: .first, at: Self.at(3_000))
        let seq = room.host.seq
        #expect(claim.reply == .accepted(seq: seq) && journal.records.last == .acted(seat: .first, action: .claim, seq: seq, at: Self.at(3_000)))
        #expect(!claim.deliveries.isEmpty && claim.deliveries.allSatisfy { Self.heard($0, in: room) == [1, 2, 9] })
        // The spectators' copy is the same bytes, put once in their feed.
        #expect(Array(room.feed.unread(from: fed)) == claim.deliveries.flatMap(\.bytes))
        #expect(Self.said(claim.deliveries).map { if case .event(let event) = $0 { event.seq } else { 0 } } == Array(5...seq))
        // Kept as sent, for a player back from a short drop.
        #expect(room.events(after: 4) == claim.deliveries.map(\.bytes))
    }

    @Test func aPaidHintIsSentWithItsCardsToThePayerAndWithoutToEveryoneElse() {
        var settings = RuleSettings.standard
        settings.hintsInDuel = true
        let room = Self.duel(MemoryJournal(), settings: settings)
        let fed = room.feed.end
        let hint = room.act(.hint, by: .second, at: Self.at(3_000))
        #expect(hint.deliveries.map { Self.heard($0, in: room) } == [[1, 9], [2]])
        #expect(Array(room.feed.unread(from: fed)) == hint.deliveries[0].bytes, "spectators hear it without the cards")
        let cards = Self.said(hint.deliveries).map { message -> Int in
            guard case .event(let event) = message, case .rules(.hintShown(_, let cards, _, _)) = event.body else { return -1 }
            return cards.count
        }
        #expect(cards == [0, 3])
        #expect(room.events(after: room.host.seq - 1) == [hint.deliveries[0].bytes], "the cards are not resent to anyone")
    }

    @Test func anActionWhoseRecordsCannotBeWrittenIsUndoneRefusedAndTheMatchStandsStill() throws {
        let journal = MemoryJournal()
        let room = Self.duel(journal)
        let before = room.host, written = journal.records
        journal.failing = true
        let refused = room.act(.claim, by: .first, at: Self.at(3_000))
        #expect(refused.reply == .refused(MatchHost.journalStalled))
        #expect(refused.deliveries.map { Self.heard($0, in: room) } == [[1, 2, 9]])
        #expect(Self.said(refused.deliveries) == [.error(MatchHost.journalStalled, id: nil)])
        #expect(room.host.seq == before.seq && room.host.match?.window == nil && room.host.match?.scores == before.match?.scores)
        #expect(room.events(after: before.seq) == [] && journal.records == written)
        #expect(room.host.stalledAt == Self.at(3_000) && room.host.nextDeadline == nil && room.backlog == [.stalled(at: Self.at(3_000))])

        // Stalled, every action is refused without telling anyone again.
        let again = room.act(.claim, by: .second, at: Self.at(3_100))
        #expect(again.reply == .refused(MatchHost.journalStalled) && again.deliveries.isEmpty)
        // Comings and goings still happen; their records wait behind the stall's.
        let left = room.leave(9, at: Self.at(3_200))
        #expect(Self.said(left.deliveries).count == 1 && room.backlog.last == .watchers(count: 0, seq: before.seq + 1, at: Self.at(3_200)))
        #expect(room.retryJournal(at: Self.at(4_000)) == nil && room.host.stalledAt != nil)

        journal.failing = false
        let resumed = try #require(room.retryJournal(at: Self.at(5_000)))
        #expect(resumed.deliveries.map(\.recipients) == [[1, 2]])
        guard case .event(let event) = Self.said(resumed.deliveries).first, case .resumed = event.body else {
            return #expect(Bool(false), "the match did not go on")
        }
        #expect(journal.records == written + [.stalled(at: Self.at(3_000)), .watchers(count: 0, seq: before.seq + 1, at: Self.at(3_200)),
                                              .unstalled(seq: event.seq, at: Self.at(5_000))])
        #expect(room.backlog.isEmpty && room.host.stalledAt == nil)
        #expect(room.act(.claim, by: .first, at: Self.at(6_000)).reply == .accepted(seq: room.host.seq))
    }

    /// A claim and its three picks from one read.
    static func claimAndPicks(in room: MatchRoom) throws -> [PendingAction] {
        let trio = try #require(SetLogic.firstSet(in: room.host.match!.table))
        return ([.claim] + trio.map(Action.select)).enumerated().map { index, action in
            PendingAction(action: action, claimedSeat: nil, seen: action == .claim ? room.host.seq : nil, id: .int(Int64(index)))
        }
    }

    /// Actions that came together are performed in order, as one at a time would be: the same
    /// records, the same lines, the same answers; only their records go in one write.
    @Test func actionsThatCameTogetherAreWrittenInOneWriteAndSayWhatTheyWouldOneByOne() throws {
        let together = MemoryJournal(), alone = MemoryJournal()
        let room = Self.duel(together), twin = Self.duel(alone)
        let actions = try Self.claimAndPicks(in: room)
        let writes = (together.writes, alone.writes)

        let outcomes = room.act(actions, by: .first, at: Self.at(3_000))
        let oneByOne = actions.map { twin.act($0.action, by: .first, at: Self.at(3_000), seen: $0.seen, id: $0.id) }
        #expect(together.writes == writes.0 + 1 && alone.writes == writes.1 + 4)
        #expect(outcomes.map(\.reply) == oneByOne.map(\.reply))
        #expect(outcomes.allSatisfy { if case .accepted = $0.reply { true } else { false } })
        #expect(outcomes.map { $0.deliveries.map(\.bytes) } == oneByOne.map { $0.deliveries.map(\.bytes) })
        #expect(together.records == alone.records)
        #expect(room.host.match?.scores == twin.host.match?.scores && room.host.seq == twin.host.seq)
        #expect((room.host.match?.scores.first ?? 0) > 0, "ann took the set")
    }

    /// When their one write fails, none of them happened: each is refused, the match is as it was
    /// and stands still, and everyone is told once, as for one action.
    @Test func actionsThatCameTogetherAreAllUndoneWhenTheirWriteFails() throws {
        let journal = MemoryJournal()
        let room = Self.duel(journal)
        let actions = try Self.claimAndPicks(in: room)
        let before = room.host, written = journal.records
        journal.failing = true

        let outcomes = room.act(actions, by: .first, at: Self.at(3_000))
        #expect(journal.writes > 0 && outcomes.map(\.reply) == Array(repeating: .refused(MatchHost.journalStalled), count: 4))
        let told = Self.said(outcomes.first?.deliveries ?? [])
        #expect(told == [.error(MatchHost.journalStalled, id: nil)])
        #expect(outcomes.dropFirst().allSatisfy { $0.deliveries.isEmpty })
        #expect(room.host.seq == before.seq && room.host.match?.window == nil && room.host.match?.scores == before.match?.scores)
        #expect(room.host.match?.table == before.match?.table && room.events(after: before.seq) == [])
        #expect(journal.records == written && room.backlog == [.stalled(at: Self.at(3_000))])

        journal.failing = false
        _ = try #require(room.retryJournal(at: Self.at(4_000)))
        let again = room.act(try Self.claimAndPicks(in: room), by: .first, at: Self.at(5_000))
        #expect(again.allSatisfy { if case .accepted = $0.reply { true } else { false } })
        #expect((room.host.match?.scores.first ?? 0) > (before.match?.scores.first ?? 0), "ann took the set once it could be written")
    }

    @Test func aSeedDrawnForADealTheJournalRefusedIsDealtNextNeverDrawnAgain() throws {
        let journal = MemoryJournal()
        var drawn: [UInt64] = []
        let room = MatchRoom(host: MatchHost(name: "m", mode: .duel, settings: .standard, seatWaitMs: 60_000), journal: journal) {
            drawn.append(41 + UInt64(drawn.count))
            return drawn.last!
        }
        _ = room.join(name: "ann", token: MatchHostTests.annToken, connection: 1, seat: nil, at: Self.at(1_000))
        journal.failing = true
        let bob = { room.join(name: "bob", token: MatchHostTests.bobToken, connection: 2, seat: nil, at: $0) }
        #expect(bob(Self.at(2_000)).reply == .refused(MatchHost.journalStalled))
        #expect(drawn == [41] && room.host.match == nil && room.host.seats[1] == nil)
        journal.failing = false
        _ = try #require(room.retryJournal(at: Self.at(3_000)))
        #expect(bob(Self.at(4_000)).reply == .seated(.second))
        #expect(drawn == [41] && room.host.match?.seed == 41)
        #expect(journal.records.contains(.game(number: 1, seed: 41, commitment: SeedCommitment.commitment(for: 41), at: Self.at(4_000))))
    }

    /// A player coming back happens whatever the disk says, but after the stall begins, as a
    /// replay will meet it: the match does not go on, since the journal is stalled.
    @Test func aComingBackTheJournalCannotTakeHappensAfterTheStallBegins() throws {
        let journal = MemoryJournal()
        let room = Self.duel(journal)
        _ = room.leave(2, at: Self.at(3_000))
        journal.failing = true
        let back = room.resume(.second, connection: 5, at: Self.at(4_000))
        #expect(back.reply == ResumeReply(replaced: nil))
        let said = Self.said(back.deliveries)
        #expect(said.first == .error(MatchHost.journalStalled, id: nil) && said.count == 2)
        guard case .event(let event) = said.last, case .presence(.second, true, _) = event.body else {
            return #expect(Bool(false), "bob's return was not told: \(said)")
        }
        #expect(room.backlog == [.stalled(at: Self.at(4_000)), .back(seat: .second, at: Self.at(4_000))])
        #expect(room.host.pausedAt != nil && room.host.seats[1]?.connection == 5)
        journal.failing = false
        let resumed = try #require(room.retryJournal(at: Self.at(5_000)))
        guard case .event(let goesOn) = Self.said(resumed.deliveries).first, case .resumed = goesOn.body else {
            return #expect(Bool(false), "the match did not go on")
        }
        #expect(journal.records.suffix(3) == [.stalled(at: Self.at(4_000)), .back(seat: .second, at: Self.at(4_000)),
                                              .unstalled(seq: goesOn.seq, at: Self.at(5_000))])
    }

    /// An outcome carries what the server must do besides sending: when the match wakes next,
    /// when a spectator count may be told, and whether the match is idle, its spectators let go.
    @Test func anOutcomeSaysWhenTheMatchWakesAndWhetherItIsIdle() {
        let room = Self.duel(MemoryJournal())
        let another = room.watch(10, at: Self.at(2_500))
        #expect(another.announcementDue == Self.at(3_000) && another.idleness == .inUse, "one count a second at most")
        let annLeft = room.leave(1, at: Self.at(3_000))
        #expect(annLeft.nextDeadline == Self.at(63_000), "ann forfeits after her seat wait")
        #expect(annLeft.idleness == .inUse && annLeft.released.isEmpty, "bob is still there")
        let bobLeft = room.leave(2, at: Self.at(3_500))
        #expect(bobLeft.idleness == .inUse && bobLeft.released.isEmpty, "a dealt duel waits for both players, whoever is present")
    }

    /// One client that paired with itself and left before anyone moved holds nothing: its duel goes.
    @Test func aDuelPairedWithItselfGoesOnceBothSeatsAreEmpty() {
        let room = Self.duel(MemoryJournal())
        room.pairedWithItself = true
        _ = room.watch(10, at: Self.at(2_500))
        #expect(room.leave(1, at: Self.at(3_000)).idleness == .inUse, "bob is still there")
        let bobLeft = room.leave(2, at: Self.at(3_500))
        #expect(bobLeft.idleness == .abandoned, "nobody moved and no player is left")
        #expect(Set(bobLeft.released) == [9, 10] && room.spectators.isEmpty)
    }

    /// A match that was played and is over goes once nobody is connected, its journal kept.
    @Test func aFinishedMatchNobodyHoldsIsIdleButAPlayedOneWaitsForItsPlayers() {
        let room = Self.duel(MemoryJournal())
        #expect(room.act(.claim, by: .first, at: Self.at(3_000)).reply == .accepted(seq: room.host.seq))
        #expect(room.leave(9, at: Self.at(3_100)).idleness == .inUse)
        _ = room.leave(1, at: Self.at(3_200))
        #expect(room.leave(2, at: Self.at(3_300)).idleness == .inUse, "a game in play waits for its players")
        let back = room.resume(.first, connection: 5, at: Self.at(4_000))
        #expect(back.reply == ResumeReply(replaced: nil) && back.idleness == .inUse)
        #expect(room.act(.resign, by: .first, at: Self.at(4_100)).reply == .accepted(seq: room.host.seq))
        #expect(room.host.phase == .over)
        #expect(room.leave(5, at: Self.at(4_200)).idleness == .finished, "over, and nobody is connected")
    }
}
