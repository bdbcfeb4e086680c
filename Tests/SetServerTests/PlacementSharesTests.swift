@testable import SetServer
import Testing

/// The shares of placements each address holds, pure: counted from the moment the store is asked,
/// freed when nothing was written, when the store says the match was made, or at the deadline.
struct PlacementSharesTests {
    @Test func aPlacementCountsWhileAskedAndUntilItsDeadlineUnlessNothingWasWritten() {
        var shares = PlacementShares()
        shares.asking("friday", by: "10.0.0.1")
        shares.asking("friday", by: "10.0.0.1")
        shares.asking("cup", by: "10.0.0.1")
        #expect(shares.held(by: "10.0.0.1", at: 0) == 2)
        #expect(shares.held(by: "10.0.0.2", at: 0) == 0)
        shares.answered("cup", by: "10.0.0.1", placedUntil: nil)
        shares.answered("friday", by: "10.0.0.1", placedUntil: 10_000)
        // The second ask of friday found the row the first wrote: the share stays.
        shares.answered("friday", by: "10.0.0.1", placedUntil: nil)
        #expect(shares.held(by: "10.0.0.1", at: 9_999) == 1)
        #expect(shares.nextFreedMs(for: "10.0.0.1", at: 4_000) == 6_000)
        #expect(shares.held(by: "10.0.0.1", at: 10_000) == 0)
        #expect(shares.placedMatches == ["friday"])
        shares.settle(asked: [], stillPlaced: [], at: 10_000)
        #expect(shares.placedMatches.isEmpty)
    }

    @Test func settlingFreesOnlyWhatWasAskedAndIsNoLongerPlaced() {
        var shares = PlacementShares()
        for match in ["a1", "a2", "a3"] {
            shares.asking(match, by: "10.0.0.1")
            shares.answered(match, by: "10.0.0.1", placedUntil: 10_000)
        }
        let asked = shares.placedMatches
        // Placed after the store was asked: the answer says nothing about it.
        shares.asking("a4", by: "10.0.0.1")
        shares.answered("a4", by: "10.0.0.1", placedUntil: 12_000)
        shares.settle(asked: asked, stillPlaced: ["a2"], at: 5_000)
        #expect(shares.placedMatches == ["a2", "a4"])
        #expect(shares.held(by: "10.0.0.1", at: 5_000) == 2)
    }
}
