import SetRules
@testable import SetServer
import Testing

/// Each address's share in one place: what it holds open, and its allowance of new connections.
@Suite struct AddressLedgerTests {
    @Test func anAddressHoldsWhatOpenedUnderItUntilItClosesOrMoves() {
        var shares = AddressLedger()
        shares.opened("10.0.0.1")
        shares.opened("10.0.0.1")
        shares.opened("door")
        #expect(shares.held(by: "10.0.0.1") == 2 && shares.held(by: "door") == 1)
        // The door says where its player is: the connection counts there from now on.
        shares.closed("door")
        shares.opened("10.0.0.1")
        #expect(shares.held(by: "10.0.0.1") == 3 && shares.held(by: "door") == 0)
        for _ in 0..<4 { shares.closed("10.0.0.1") }
        #expect(shares.held(by: "10.0.0.1") == 0, "a close too many counts nothing below zero")
    }

    @Test func newConnectionsComeInBurstsOfTwiceTheRateThenAtTheRate() {
        var shares = AddressLedger()
        let start = Instant(milliseconds: 1_000)
        let burst = (0..<12).map { _ in shares.mayConnect(from: "10.0.0.1", perSecond: 5, at: start) }
        #expect(burst == Array(repeating: true, count: 10) + [false, false])
        let another = shares.mayConnect(from: "10.0.0.2", perSecond: 5, at: start)
        #expect(another, "each address has its own allowance")
        let later = (0..<2).map { _ in shares.mayConnect(from: "10.0.0.1", perSecond: 5, at: start.adding(200)) }
        #expect(later == [true, false], "one more every 200 ms")
    }
}
