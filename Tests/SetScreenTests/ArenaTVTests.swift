import SetClient
import SetRules
import SetWire
import Testing
@testable import SetScreen

/// The arena's TV (issue 44, `setgame watch --arena`): which board it follows (the duel whose
/// players rank highest), that it stays on it while it is played, shows its end a moment and then
/// switches to the top board of that moment; the standings between boards and the final ones at
/// the end.
@Suite struct ArenaTVTests {
    static let top = ArenaBoard(match: "arena-friday-3", players: ["fayzer", "bob"], scores: [28, 26])
    static let second = ArenaBoard(match: "arena-friday-4", players: ["cy", "ann"], scores: [24, 2])

    /// The 23 players of the arena screen's tests, with `boards` under way in the server's order.
    static func arena(_ boards: [ArenaBoard], phase: ArenaState = .running) -> ArenaView {
        var view = ArenaScreenTests.state(phase: phase)
        view.boards = boards
        let playing = Dictionary(boards.flatMap { board in board.players.map { ($0, board.match) } }, uniquingKeysWith: { first, _ in first })
        for index in view.standings.indices { view.standings[index].playing = playing[view.standings[index].name] }
        return view
    }

    @Test func theTopBoardIsTheOneWhosePlayersRankHighest() {
        // The server lists the higher sum of arena scores first; the TV goes by rank.
        var lowFirst = Self.arena([Self.second, Self.top])
        #expect(ArenaTV.topBoard(in: lowFirst) == Self.top)
        // Best-ranked player first, then the other: #1 with #20 beats #2 with #3.
        let one = ArenaBoard(match: "a-1", players: ["tia", "fayzer"], scores: [0, 0])
        let two = ArenaBoard(match: "a-2", players: ["bob", "cy"], scores: [0, 0])
        lowFirst.boards = [two, one]
        #expect(ArenaTV.topBoard(in: lowFirst) == one)
        // A tie keeps the server's order; a name missing from the standings ranks last; no boards, none.
        lowFirst.boards = [ArenaBoard(match: "x", players: ["nobody", "fayzer"], scores: [0, 0]), one]
        #expect(ArenaTV.topBoard(in: lowFirst) == one)
        lowFirst.boards = []
        #expect(ArenaTV.topBoard(in: lowFirst) == nil)
    }

    @Test func itStaysOnItsBoardUntilItEndsThenSwitchesAfterAMoment() {
        var tv = ArenaTV()
        #expect(tv.take(Self.arena([Self.second]), at: 0) == .follow(Self.second))
        // A higher board begins meanwhile: the TV stays on the duel it shows.
        #expect(tv.take(Self.arena([Self.second, Self.top]), at: 100) == nil)
        #expect(tv.showing == .board(Self.second))
        // Its game is over: shown a moment, then the top board of that moment.
        #expect(tv.boardOver(Self.second.match, at: 1_000) == nil)
        #expect(tv.showing == .ended(Self.second, until: 1_000 + ArenaTV.lingerMs) && tv.nextWake == 1_000 + ArenaTV.lingerMs)
        #expect(tv.tick(at: 3_999) == nil)
        #expect(tv.tick(at: 4_000) == .follow(Self.top))
        #expect(tv.showing == .board(Self.top) && tv.nextWake == nil)
    }

    @Test func aBoardGoneFromTheArenasStateHasEnded() {
        var tv = ArenaTV()
        _ = tv.take(Self.arena([Self.top]), at: 0)
        var scored = Self.top
        scored.scores = [30, 26]
        #expect(tv.take(Self.arena([scored]), at: 10) == nil && tv.showing == .board(scored), "the same duel, new arena scores")
        #expect(tv.take(Self.arena([Self.second]), at: 500) == nil)
        #expect(tv.showing == .ended(scored, until: 500 + ArenaTV.lingerMs))
        #expect(tv.tick(at: 500 + ArenaTV.lingerMs) == .follow(Self.second))
    }

    @Test func theDuelJustOverIsNeverFollowedAgainEvenWhileStillListed() {
        var tv = ArenaTV()
        _ = tv.take(Self.arena([Self.top, Self.second]), at: 0)
        _ = tv.boardOver(Self.top.match, at: 0)
        // The spectator heard game_over before the arena's state dropped the board.
        #expect(tv.tick(at: ArenaTV.lingerMs) == .follow(Self.second))
    }

    @Test func betweenBoardsTheStandingsAndOnceOverTheFinalOnes() {
        var tv = ArenaTV()
        #expect(tv.take(Self.arena([]), at: 0) == nil && tv.showing == .standings)
        #expect(tv.take(Self.arena([Self.top]), at: 10) == .follow(Self.top))
        _ = tv.boardOver(Self.top.match, at: 20)
        _ = tv.take(Self.arena([]), at: 30)
        #expect(tv.tick(at: 20 + ArenaTV.lingerMs) == .unfollow && tv.showing == .standings && tv.board == nil)
        // The clock ran out while a last duel is played: it is followed to its end.
        #expect(tv.take(Self.arena([Self.second], phase: .finished), at: 5_000) == .follow(Self.second))
        _ = tv.take(Self.arena([], phase: .finished), at: 6_000)
        #expect(tv.tick(at: 6_000 + ArenaTV.lingerMs) == .unfollow && tv.showing == .final)
        #expect(tv.take(Self.arena([], phase: .finished), at: 20_000) == nil && tv.showing == .final)
        var over = ArenaTV()
        #expect(over.take(Self.arena([], phase: .finished), at: 0) == nil && over.showing == .final, "come after the end")
    }
}
