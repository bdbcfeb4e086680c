import SetClient
import SetRules
import SetWire
import Testing
@testable import SetScreen

/// The arena as a person sees it between duels (issue 44, item 3): standings with the streak,
/// games, rating and who plays whom, the minutes left, the player's own line highlighted, the
/// keys; the final standings with the winner(s) and performance; at 80×24, 60×20 and 120×40
/// (and every size between) nothing cut without "…" and nothing overlapping.
@Suite struct ArenaScreenTests {
    static let names = ["fayzer", "bob", "cy", "dee", "eve-the-very-long-named", "gus", "hal", "ivy", "jo", "kim", "lu", "mo",
                        "ned", "oz", "pat", "quinn", "ros", "sam", "tia", "uma", "val", "wes"]

    /// A running arena of 23 players, ann 14th, with 7:30 left at local time 0 (server 30,000).
    static func state(ann rank: Int = 14, phase: ArenaState = .running) -> ArenaView {
        var standings: [ArenaEntry] = []
        var others = names.makeIterator()
        for position in 1...23 {
            let name = position == rank ? "ann" : others.next()!
            let score = max(0, 30 - 2 * position)
            standings.append(ArenaEntry(rank: position, name: name, score: score, games: 6, wins: score / 4,
                                        streak: position == 1 ? 3 : (position == 2 ? 1 : 0), fire: position == 1,
                                        rating: position == 5 ? nil : 1_900 - 10 * position, provisional: position == 3,
                                        bot: name == "gus", paused: name == "hal",
                                        playing: position <= 2 ? "arena-friday-3" : (name == "cy" || name == "ann" ? "arena-friday-4" : nil)))
        }
        return ArenaView(header: ArenaHeader(arena: "friday", variant: .classic, rated: true, state: phase, endsAt: 480_000), startsAt: 0,
                         standings: standings,
                         boards: [ArenaBoard(match: "arena-friday-3", players: ["fayzer", "bob"], scores: [7, 5]),
                                  ArenaBoard(match: "arena-friday-4", players: ["cy", "ann"], scores: [2, 3])])
    }

    static func screen(_ state: ArenaView = state()) -> ArenaScreen {
        var screen = ArenaScreen(me: "ann", arena: "friday")
        _ = screen.take(.welcomed(serverTime: 30_000, limits: ServerLimits()), at: 0)
        _ = screen.take(.arena(.state(state)), at: 0)
        return screen
    }

    static func text(_ screen: ArenaScreen, _ columns: Int, _ rows: Int, at now: Int64 = 0) -> [String] {
        DoorMenuTests.trimmed(ArenaStandingsView.render(screen, size: TerminalSize(columns: columns, rows: rows), at: now))
    }

    static let keys = "  p pause, l leave the arena (your points stay), q quit"

    @Test func at80x24() {
        #expect(Self.text(Self.screen(), 80, 24) == [
            "  Arena friday · Classic, rated · 7:30 left",
            "  You: #14 of 23, 2 points.",
            "",
            "  #   Player                   Score Streak Games Rating Playing",
            "  1   fayzer                   28    3 ×2   6     1890   vs bob",
            "  2   bob                      26    1      6     1880   vs fayzer",
            "  3   cy                       24           6     1870?  vs ann",
            "  4   dee                      22           6     1860",
            "  5   eve-the-very-long-named  20           6     new",
            "  6   gus (bot)                18           6     1840",
            "  7   hal                      16           6     1830   paused",
            "  8   ivy                      14           6     1820",
            "  9   jo                       12           6     1810",
            "  10  kim                      10           6     1800",
            "  11  lu                       8            6     1790",
            "  12  mo                       6            6     1780",
            "  13  ned                      4            6     1770",
            "  14  ann                      2            6     1760   vs cy",
            "  15  oz                       0            6     1750",
            "    … 8 more",
            "  Boards",
            "    1. fayzer 7 – bob 5",
            "    2. cy 2 – ann 3",
            Self.keys,
        ])
    }

    @Test func at60x20TheOwnLineStaysInSightBelowAGap() {
        let lines = Self.text(Self.screen(), 60, 20)
        #expect(lines.count == 20 && lines.last == Self.keys)
        #expect(Array(lines[8...15]) == ["  5   eve-the-very-lon… 20           6     new", "  6   gus (bot)         18           6     1840",
                                          "  7   hal               16           6     1830   paused", "  8   ivy               14           6     1820",
                                          "  9   jo                12           6     1810", "    … 4 more",
                                          "  14  ann               2            6     1760   vs cy", "    … 9 more"])
    }

    @Test func at120x40EveryoneShowsAndTheClockCountsDown() {
        let lines = Self.text(Self.screen(), 120, 40, at: 150_000)
        #expect(lines.first == "  Arena friday · Classic, rated · 5:00 left")
        #expect(lines.contains("  23  wes                      0            6     1670") && !lines.contains { $0.contains("more") })
        #expect(lines.last == Self.keys)
    }

    @Test func theOwnLineIsHighlightedAcrossTheWidth() throws {
        let buffer = ArenaStandingsView.render(Self.screen(), size: TerminalSize(columns: 80, rows: 24), at: 0)
        let row = try #require(DoorMenuTests.trimmed(buffer).firstIndex { $0.hasPrefix("  14  ann") })
        #expect(buffer[2, row].style.reverse && buffer[79, row].style.reverse)
        #expect(!buffer[2, row - 1].style.reverse, "only the player's own line")
    }

    /// Every size from 20×6 to 140×50: the title first, the keys (or their last line) last, the
    /// standings in rank order with the player's own line among them once there is room, every
    /// name whole or cut with "…", and no line of one part written over another's.
    @Test func everySizeReadsWithNothingCutSilentlyOrOverlapping() {
        for columns in stride(from: 20, through: 140, by: 7) {
            for rows in stride(from: 6, through: 50, by: 3) {
                let lines = Self.text(Self.screen(), columns, rows)
                let label = "\(columns)×\(rows)"
                #expect(lines.count == rows, "\(label)")
                #expect(lines[0].contains("Arena"), "\(label): \(lines[0])")
                var ranks: [Int] = []
                for line in lines {
                    let fields = line.split(separator: " ")
                    guard let first = fields.first, let rank = Int(first), fields.count >= 2, !line.hasPrefix("    ") else { continue }
                    ranks.append(rank)
                    let name = String(fields[1])
                    if name == "…" { continue }  // a name column of one cell, on the narrowest screens
                    let whole = Self.names + ["ann"]
                    #expect(whole.contains(name) || (name.hasSuffix("…") && whole.contains { $0.hasPrefix(String(name.dropLast())) }),
                            "\(label): \(line)")
                }
                #expect(ranks == ranks.sorted() && Set(ranks).count == ranks.count, "\(label): \(ranks)")
                if rows >= 12 { #expect(ranks.contains(14), "\(label): the player's own line") }
                // On a very low screen the keys give way to the standings.
                let keys = lines.last { !$0.isEmpty } ?? ""
                if rows >= 9 { #expect(keys.hasSuffix("quit"), "\(label): \(keys)") }
            }
        }
    }

    @Test func theFinalStandingsShowTheWinnersAndPerformance() {
        var screen = Self.screen(Self.state(phase: .finished))
        var results = ArenaResults(header: ArenaHeader(arena: "friday", variant: .classic, rated: true, state: .finished, endsAt: 480_000),
                                   standings: Self.state().standings, winners: ["fayzer"])
        results.standings[0].performance = 2_010
        results.standings[13].performance = 1_450
        _ = screen.take(.arena(.results(results)), at: 0)
        let lines = Self.text(screen, 80, 24)
        #expect(Array(lines[0...4]) == [
            "  Arena friday is over · Classic, rated · final standings",
            "  Winner: fayzer",
            "",
            "  #   Player                   Score Games Rating Perf",
            "  1   fayzer                   28    6     1890   2010",
        ])
        #expect(lines.contains("  14  ann                      2     6     1760   1450"))
        #expect(lines.last == "  q quit")
    }

    /// The results are asked once the clock ran out and the last duels are counted: asked while
    /// duels were under way, they would miss those games, and the final standings would be wrong.
    @Test func aFinishedArenaAsksForItsResultsOnceItsLastDuelsAreCounted() {
        var screen = ArenaScreen(me: "ann", arena: "friday")
        _ = screen.take(.arena(.state(Self.state())), at: 0)
        #expect(screen.take(.arena(.state(Self.state(phase: .finished))), at: 0).isEmpty, "two duels still under way")
        #expect(!screen.finished)
        #expect(Self.text(screen, 80, 24).first == "  Arena friday · Classic, rated · time is up, the last duels finish")
        var final = Self.state(phase: .finished)
        final.boards = []
        #expect(screen.take(.arena(.state(final)), at: 0) == [.send(.arena(.results(arena: "friday")))])
        #expect(screen.finished)
        #expect(screen.take(.arena(.state(final)), at: 0).isEmpty)
    }

    @Test func keysPauseResumeLeaveAndQuit() {
        var screen = Self.screen()
        #expect(screen.input(.key(.character("p")), at: 0) == [.pause])
        var paused = Self.state()
        paused.standings[13].paused = true
        _ = screen.take(.arena(.state(paused)), at: 0)
        #expect(Self.text(screen, 80, 24).last == "  p resume, l leave the arena (your points stay), q quit")
        #expect(Self.text(screen, 80, 24)[1] == "  You: #14 of 23, 2 points · paused.")
        #expect(screen.input(.key(.character("p")), at: 0) == [.resume])
        #expect(screen.input(.key(.character("l")), at: 0) == [.leave, .finish(.left)])
        #expect(screen.input(.key(.character("q")), at: 0).isEmpty, "over: nothing more")
        var other = Self.screen()
        #expect(other.input(.key(.character("q")), at: 0) == [.finish(.quit)])
    }

    @Test func aDuelIsPlayedAndItsEndIsToldBackInTheStandings() {
        var screen = Self.screen()
        let pairing = ArenaPairingNotice(arena: "friday", match: "arena-friday-9", token: "tok", opponent: "bob")
        _ = screen.take(.arena(.paired(pairing)), at: 0)
        #expect(screen.stage == .playing(pairing))
        #expect(screen.input(.key(.character("l")), at: 0).isEmpty, "the duel's screen has the keys")
        _ = screen.take(.joined(match: "arena-friday-9", seat: .second, resumed: false, first: false), at: 0)
        let over = WireEvent(match: "arena-friday-9", seq: 9, time: 0, body: .gameOver(
            MatchResult(reason: .noSetsLeft, by: nil, scores: [9, 12], winner: .second), seed: 1))
        _ = screen.take(.eventApplied(over, before: ClientFixtures.view(seq: 8)), at: 0)
        _ = screen.take(.arena(.duelOver), at: 0)
        #expect(screen.stage == .between)
        #expect(Self.text(screen, 80, 24).suffix(2) == ["  You beat bob 12–9.", Self.keys])
    }

    /// A duel the opponent never sat in ends with no game: the standings say so, not the last
    /// duel's words.
    @Test func aDuelTheOpponentNeverCameToIsToldSo() {
        var screen = Self.screen()
        let first = ArenaPairingNotice(arena: "friday", match: "arena-friday-9", token: "tok", opponent: "bob")
        _ = screen.take(.arena(.paired(first)), at: 0)
        let over = WireEvent(match: "arena-friday-9", seq: 9, time: 0, body: .gameOver(
            MatchResult(reason: .noSetsLeft, by: nil, scores: [9, 12], winner: .second), seed: 1))
        _ = screen.take(.joined(match: "arena-friday-9", seat: .second, resumed: false, first: false), at: 0)
        _ = screen.take(.eventApplied(over, before: ClientFixtures.view(seq: 8)), at: 0)
        _ = screen.take(.arena(.duelOver), at: 0)
        let second = ArenaPairingNotice(arena: "friday", match: "arena-friday-10", token: "tok2", opponent: "cy")
        _ = screen.take(.arena(.paired(second)), at: 0)
        _ = screen.take(.arena(.duelOver), at: 0)
        #expect(screen.stage == .between)
        #expect(Self.text(screen, 80, 24).suffix(2) == ["  cy did not come: the duel is yours.", Self.keys])
    }

    @Test func aDuelsEndInWords() {
        let lost = MatchResult(reason: .resigned, by: .first, scores: [3, 5], winner: .second)
        #expect(ArenaScreen.words(lost, seat: .first, opponent: "bob") == "bob beat you 5–3 (you resigned).")
        let draw = MatchResult(reason: .noSetsLeft, by: nil, scores: [6, 6], winner: nil)
        #expect(ArenaScreen.words(draw, seat: .second, opponent: "bob") == "A draw with bob, 6–6.")
        let forfeit = MatchResult(reason: .forfeited, by: .second, scores: [0, 0], winner: .first)
        #expect(ArenaScreen.words(forfeit, seat: .first, opponent: "bob") == "You beat bob 0–0 (bob forfeited).")
    }

    @Test func anUnknownArenaEndsTheScreenWithTheServersWords() {
        var screen = ArenaScreen(me: "ann", arena: "nope")
        let error = WireError(.noSuchArena, "No arena is called nope.")
        #expect(screen.take(.refused(error), at: 0) == [.finish(.failed("No arena is called nope."))])
    }
}
