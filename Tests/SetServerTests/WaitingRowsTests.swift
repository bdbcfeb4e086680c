@testable import SetServer
import SetRules
import Testing

/// Which of a node's waiting rows a decision keeps and which go, from the lobby's word.
struct WaitingRowsTests {
    @Test func aRowIsKeptWhileItsDecisionIsUnderWayOrItsDuelWaitsAndGoesOnceItFillsOrEmpties() {
        var rows = WaitingRows()
        var state: [String: WaitingRows.DuelState] = [:]
        rows.asked("duel-a-1", variant: .classic)
        #expect(rows.keeping(.classic) { state[$0] ?? .absent } == ["duel-a-1"])
        #expect(rows.keeping(.junior) { state[$0] ?? .absent } == [])
        #expect(rows.settle(state: { state[$0] ?? .absent }, joining: { _ in false }) == [])
        rows.answered("duel-a-1", wrote: true, by: 7)
        #expect(rows.isUnmade("duel-a-1"))
        // Its player is still joining: the row waits for the duel to be made.
        #expect(rows.settle(state: { state[$0] ?? .absent }, joining: { $0 == 7 }) == [])
        // Made and filled in one turn, before a settling: a decision keeps it no more.
        #expect(rows.keeping(.classic) { _ in .closed } == [])
        state["duel-a-1"] = .open
        #expect(rows.settle(state: { state[$0] ?? .absent }, joining: { _ in false }) == [])
        #expect(rows.rows["duel-a-1"] == .made(.classic))
        state["duel-a-1"] = .closed
        #expect(rows.keeping(.classic) { state[$0] ?? .absent } == [])
        #expect(rows.settle(state: { state[$0] ?? .absent }, joining: { _ in false }) == ["duel-a-1"])
        #expect(rows.rows.isEmpty)
    }

    @Test func aRowWhosePlayerWasRefusedBeforeMakingItsDuelGoesAndAnAnswerThatWroteNothingLeavesNone() {
        var rows = WaitingRows()
        rows.asked("duel-a-1", variant: .classic)
        rows.answered("duel-a-1", wrote: true, by: 7)
        #expect(rows.settle(state: { _ in .absent }, joining: { _ in false }) == ["duel-a-1"])
        rows.asked("duel-a-2", variant: .classic)
        rows.answered("duel-a-2", wrote: false, by: 8)
        #expect(rows.rows.isEmpty)
        // A made duel whose player left goes too.
        rows.asked("duel-a-3", variant: .classic)
        rows.answered("duel-a-3", wrote: true, by: 9)
        _ = rows.settle(state: { _ in .open }, joining: { _ in false })
        #expect(rows.settle(state: { _ in .absent }, joining: { _ in true }) == ["duel-a-3"])
    }
}
