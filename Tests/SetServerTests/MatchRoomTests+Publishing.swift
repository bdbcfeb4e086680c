@testable import SetServer
import SetRules
import SetWire
import Testing

// Commit, then publish, in the room alone: what it holds back and in what order it lets it out.
extension MatchRoomTests {
    /// A game's end waits unencoded for its record, and what the match says after it waits behind
    /// it: nothing reaches the spectators' feed or the resume history until the record is
    /// committed; then all of it does, numbered in order.
    @Test func aGameOverAndAllAfterItWaitUnencodedUntilItsRecordIsCommitted() throws {
        let room = Self.duel(MemoryJournal())
        room.awaitsRecords = true
        let before = room.host.seq, fed = room.feed.end
        let resign = room.act(.resign, by: .first, at: Self.at(3_000))
        #expect(resign.finished?.game == 1)
        #expect(resign.deliveries.isEmpty && room.feed.end == fed && room.isHoldingBack)
        let left = room.leave(2, at: Self.at(3_100))  // bob's going waits behind the game's end
        #expect(left.deliveries.isEmpty && left.finished == nil && room.feed.end == fed)
        #expect(room.events(after: before) == [], "nothing after the last event told is kept for a resume")

        #expect(room.publish { _ in .unwritten }.isEmpty && room.isHoldingBack)
        let told = Self.said(room.publish { _ in .committed(nil) })
        let seqs = told.compactMap { if case .event(let event) = $0 { event.seq } else { nil } }
        #expect(seqs == Array(before + 1...room.host.seq))
        #expect(told.contains { if case .event(let event) = $0, case .gameOver = event.body { true } else { false } })
        #expect(room.feed.end > fed && !room.isHoldingBack)
        #expect(room.events(after: before)?.count == seqs.count)
    }

    /// A room whose server keeps no accounts tells a game's end at once.
    @Test func aRoomThatAwaitsNoRecordsTellsAGameOverAtOnce() {
        let room = Self.duel(MemoryJournal())
        let resign = room.act(.resign, by: .first, at: Self.at(3_000))
        #expect(resign.finished == nil && !resign.deliveries.isEmpty && !room.isHoldingBack)
    }

    /// A player back from a short drop is sent what it missed, in order, from the last 64 events
    /// however many came before; one that missed more is sent nothing (it takes a snapshot).
    @Test func theResumeHistoryKeepsTheLast64EventsInOrder() {
        var history = EventHistory()
        var lines: [Int: [UInt8]] = [:]
        for seq in 1...150 {
            lines[seq] = history.encode(.event(WireEvent(match: "m", seq: seq, time: 0, body: .presence(seat: .first, present: true, forfeitAt: nil)), to: .everyone))
        }
        #expect(history.events(after: 100, upTo: 150) == (101...150).map { lines[$0]! })
        #expect(history.events(after: 86, upTo: 150) == (87...150).map { lines[$0]! }, "the oldest kept is 87")
        #expect(history.events(after: 85, upTo: 150) == nil, "86 is no longer kept")
        #expect(history.events(after: 150, upTo: 150) == [])
    }
}
