import SetRules
import Testing
@testable import SetScreen

@Suite struct MotionTests {
    static let bounds = Rect(column: 0, row: 0, width: 120, height: 40)
    static func rect(_ column: Int, _ row: Int) -> Rect { Rect(column: column, row: row, width: 13, height: 7) }
    static let targets: [(card: Card, rect: Rect)] = (0..<3).map { (Card.all[$0], rect(10 + 15 * $0, 10)) }

    func rects(_ motion: Motion, at now: Int64) -> [Card: Rect] {
        Dictionary(motion.sprites(at: now).filter { !$0.leaving }.map { ($0.card, $0.rect) }, uniquingKeysWith: { a, _ in a })
    }

    @Test func firstTableFliesInFromOffScreenAfterAPause() {
        var motion = Motion(enabled: true, seed: 1)
        motion.retarget(Self.targets, bounds: Self.bounds, entry: .scatter, deckPile: nil, at: 1_000)
        // At first nothing is on screen: every card waits beyond an edge.
        for (_, rect) in rects(motion, at: 1_000) { #expect(!Self.bounds.intersects(rect), "\(rect) should be off screen") }
        #expect(motion.isAnimating(at: 1_000))
        let landed = 1_000 + Motion.scatterPause + 2 * Motion.scatterStagger + Motion.enterDuration
        let final = rects(motion, at: landed)
        for (card, rect) in Self.targets { #expect(final[card] == rect) }
        #expect(!motion.isAnimating(at: landed))
    }

    @Test func anArrivalIsInPlaceAtOnce() {
        var motion = Motion(enabled: true, seed: 1)
        motion.retarget(Self.targets, bounds: Self.bounds, entry: .arrival, deckPile: nil, at: 1_000)
        // The first frame already draws every card where it belongs: nothing flies, nothing waits.
        for (card, rect) in Self.targets {
            #expect(rects(motion, at: 1_000)[card] == rect)
            #expect(motion.isShowing(card, at: 1_000))
        }
        #expect(!motion.isAnimating(at: 1_000))
    }

    @Test func theSameSeedFliesTheSameWay() {
        var a = Motion(enabled: true, seed: 7), b = Motion(enabled: true, seed: 7)
        a.retarget(Self.targets, bounds: Self.bounds, entry: .scatter, deckPile: nil, at: 0)
        b.retarget(Self.targets, bounds: Self.bounds, entry: .scatter, deckPile: nil, at: 0)
        #expect(a.sprites(at: 400) == b.sprites(at: 400))
    }

    @Test func aReLayoutGlidesAndKeepsTheCardShape() {
        var motion = Motion(enabled: true)
        motion.retarget(Self.targets, bounds: Self.bounds, entry: .scatter, deckPile: nil, at: 0)
        let moved = Self.targets.map { (card: $0.card, rect: Rect(column: $0.rect.column, row: 25, width: 9, height: 5)) }
        motion.retarget(moved, bounds: Self.bounds, entry: .deck, deckPile: nil, at: 10_000)
        let start = rects(motion, at: 10_000), middle = rects(motion, at: 10_000 + Motion.moveDuration / 2)
        let end = rects(motion, at: 10_000 + Motion.moveDuration)
        let card = Self.targets[0].card
        #expect(start[card] == Self.targets[0].rect)
        #expect(end[card] == moved[0].rect)
        let halfway = middle[card]!
        #expect(halfway.row > 10 && halfway.row < 25)
        for rect in [halfway, end[card]!] { #expect(rect.width == 2 * rect.height - 1) }
    }

    @Test func dealtCardsLeaveThePileFaceDownAndLandFaceUp() {
        var motion = Motion(enabled: true)
        motion.retarget(Self.targets, bounds: Self.bounds, entry: .scatter, deckPile: nil, at: 0)
        let pile = Self.rect(100, 20)
        let dealt = Self.targets + [(card: Card.all[3], rect: Self.rect(55, 10))]
        motion.retarget(dealt, bounds: Self.bounds, entry: .deck, deckPile: pile, at: 10_000)
        let early = motion.sprites(at: 10_050).first { $0.card == Card.all[3] }!
        #expect(early.faceDown)
        #expect(early.rect.column > 55 && early.rect.column <= 100, "on its way from the pile")
        let landed = motion.sprites(at: 10_000 + Motion.enterDuration).first { $0.card == Card.all[3] }!
        #expect(!landed.faceDown && landed.rect == Self.rect(55, 10))
    }

    @Test func aTakenSetCelebratesThenFliesAway() {
        var motion = Motion(enabled: true)
        motion.retarget(Self.targets, bounds: Self.bounds, entry: .scatter, deckPile: nil, at: 0)
        motion.retarget([], bounds: Self.bounds, entry: .deck, deckPile: nil, flourish: [Card.all[0]], at: 10_000)
        let celebrating = motion.sprites(at: 10_000 + Motion.flourishDuration / 2)
        let first = celebrating.first { $0.card == Card.all[0] }!
        #expect(first.flourishing && first.leaving && first.rect.row == 9, "hops up a row")
        let second = celebrating.first { $0.card == Card.all[1] }!
        #expect(!second.flourishing && second.leaving)
        let gone = 10_000 + Motion.flourishDuration + Motion.flightDuration
        #expect(motion.sprites(at: gone).isEmpty)
        let leaving = motion.sprites(at: 10_000 + Motion.flourishDuration + Motion.flightDuration - 1).first { $0.card == Card.all[0] }!
        #expect(!Self.bounds.contains(leaving.rect), "nearly off screen at the end")
        #expect(!motion.isAnimating(at: gone))
        motion.prune(at: gone)
        #expect(motion.leaving.isEmpty)
    }

    @Test func aNewGameWaitsForTheOldCardsToLeave() {
        var motion = Motion(enabled: true)
        motion.retarget(Self.targets, bounds: Self.bounds, entry: .scatter, deckPile: nil, at: 0)
        let fresh = (3..<6).map { (card: Card.all[$0], rect: Self.rect(10 + 15 * ($0 - 3), 10)) }
        motion.retarget(fresh, bounds: Self.bounds, entry: .scatter, deckPile: nil, at: 10_000)
        let new = motion.tracks[Card.all[3].id]!
        #expect(new.start == 10_000 + Motion.leaveDuration + Motion.scatterPause)
        #expect(motion.leaving.count == 3)
    }

    @Test func withoutAnimationCardsAreAtOnceWhereTheyBelong() {
        var motion = Motion(enabled: false)
        motion.retarget(Self.targets, bounds: Self.bounds, entry: .scatter, deckPile: nil, at: 0)
        for (card, rect) in Self.targets { #expect(rects(motion, at: 0)[card] == rect) }
        motion.retarget([], bounds: Self.bounds, entry: .deck, deckPile: nil, flourish: [Card.all[0]], at: 1)
        #expect(motion.sprites(at: 1).isEmpty)
        #expect(!motion.isAnimating(at: 0))
    }

    @Test func theAppAnimatesOnlyWhileSomethingMoves() {
        var app = ClientFixtures.app(ClientFixtures.view(), animation: true, at: 0)
        #expect(app.nextWake(at: 10) == app.state.nextPingAt, "the first table is in place: no frame is due")
        var next = ClientFixtures.view(seq: 9)
        next.game = 2
        next.table = Array(Card.all[12..<24])
        _ = app.receive(.snapshot(next), at: 1_000)
        #expect(app.nextWake(at: 1_010) == 1_043, "30 fps while a new game flies in")
        _ = app.tick(at: 5_000)
        // Idle: only the next ping wakes the loop.
        #expect(app.nextWake(at: 5_000) == app.state.nextPingAt)
    }

    @Test func theSessionsFirstTableIsInPlaceAtOnceAndALaterGameScatters() {
        var app = ClientFixtures.app(ClientFixtures.view(), animation: true, at: 0)
        #expect(app.state.view!.table.allSatisfy { app.state.motion.isShowing($0, at: 0) }, "all twelve in the first frame")
        #expect(!app.state.motion.isAnimating(at: 0))
        var next = ClientFixtures.view(seq: 9)
        next.game = 2
        next.table = Array(Card.all[12..<24])
        _ = app.receive(.snapshot(next), at: 10_000)
        #expect(!next.table.contains { app.state.motion.isShowing($0, at: 10_000) }, "a new game still flies in at its pace")
        #expect(app.state.motion.isAnimating(at: 10_000))
    }

    @Test func aTakenSetFliesToTheTakersScoreOverEverythingAndTheNewCardsWait() {
        var motion = Motion(enabled: true)
        motion.retarget(Self.targets, bounds: Self.bounds, entry: .scatter, deckPile: nil, at: 0)
        let score = Rect(column: 3, row: -2, width: 5, height: 3)
        let fresh = [(card: Card.all[5], rect: Self.targets[0].rect)] + Self.targets.dropFirst()
        motion.retarget(Array(fresh), bounds: Self.bounds, entry: .deck, deckPile: Self.rect(100, 10),
                        flourish: [Card.all[0]], flyTo: score, at: 10_000)
        let celebrating = motion.sprites(at: 10_000 + Motion.flourishDuration / 2)
        #expect(celebrating.last?.card == Card.all[0] && celebrating.last?.flourishing == true, "drawn last, over the table")
        #expect(!celebrating.contains { $0.card == Card.all[5] }, "the replacement waits for the celebration")
        #expect(motion.tracks[Card.all[5].id]!.start == 10_000 + Motion.flourishDuration)
        let midway = motion.sprites(at: 10_000 + Motion.flourishDuration + Motion.flightDuration * 3 / 4).first { $0.card == Card.all[0] }!
        #expect(midway.rect.row < Self.targets[0].rect.row && midway.rect.height < Self.targets[0].rect.height, "rising and shrinking")
        #expect(midway.flying && !midway.flourishing)
        let arriving = motion.sprites(at: 10_000 + Motion.flourishDuration + Motion.flightDuration - 1).first { $0.card == Card.all[0] }!
        #expect(abs(arriving.rect.column - score.column) <= 1 && abs(arriving.rect.row - score.row) <= 1, "at the score: \(arriving.rect)")
    }
}
