import SetClient
import SetRules
import SetWire
import Testing
@testable import SetScreen

/// The arena's TV on its two connections (issue 44, `setgame watch --arena`): the arena followed
/// as a watcher, its top board watched as a spectator on a connection of its own, the next board
/// after a finished one lingered, the standings between boards; drawn at every size from 20×6 to
/// 140×50.
@Suite struct ArenaTVAppTests {
    static let welcome = ServerMessage.welcome(server: "t", versions: [1], time: 30_000, limits: ServerLimits())

    static func sends(_ effects: [ArenaTVEffect], on channel: ArenaTVChannel) -> [ClientMessage] {
        effects.compactMap { if $0.channel == channel, case .send(let message) = $0.effect { message } else { nil } }
    }

    /// A TV that joined arena friday as a watcher and heard `boards` under way.
    static func tv(_ boards: [ArenaBoard], size: TerminalSize = TerminalSize(columns: 80, rows: 24)) -> (ArenaTVApp, [ArenaTVEffect]) {
        var app = ArenaTVApp(arena: "friday", options: ClientOptions(name: "viv"), size: size)
        #expect(app.start(at: 0) == [ArenaTVEffect(.arena, .connect)])
        _ = app.connected(.arena, at: 0)
        let joined = app.receive(welcome, on: .arena, at: 0)
        #expect(sends(joined, on: .arena) == [.arena(.join(ArenaJoinRequest(arena: "friday", name: "viv", watch: true)))])
        let heard = app.receive(.arena(ArenaTVTests.arena(boards), id: 1), on: .arena, at: 0)
        return (app, heard)
    }

    /// The board's connection heard its welcome, its spectator's join and a snapshot of `match`.
    static func watching(_ app: inout ArenaTVApp, _ match: String, at now: Int64) -> [ClientMessage] {
        _ = app.connected(.board, at: now)
        let joins = sends(app.receive(welcome, on: .board, at: now), on: .board)
        _ = app.receive(.joined(role: .spectator, match: match, mode: .duel, seat: nil, token: nil, resumed: false, id: nil), on: .board, at: now)
        var view = ClientFixtures.view()
        view.match = match
        _ = app.receive(.snapshot(view), on: .board, at: now)
        return joins
    }

    static func text(_ app: ArenaTVApp, at now: Int64 = 0) -> [String] { DoorMenuTests.trimmed(app.compose(at: now)) }

    @Test func theTopBoardIsWatchedOnItsOwnConnectionUnderATitle() throws {
        var (app, effects) = Self.tv([ArenaTVTests.second, ArenaTVTests.top])
        #expect(effects.contains(ArenaTVEffect(.board, .connect)))
        let joins = Self.watching(&app, ArenaTVTests.top.match, at: 0)
        let join = try #require(joins.first { if case .join = $0 { true } else { false } })
        guard case .join(let request) = join else { Issue.record("\(joins)"); return }
        #expect(request.role == .spectator && request.match == "arena-friday-3" && request.token == nil)
        let lines = Self.text(app)
        #expect(lines[0] == "TV friday · duel 3: fayzer #1 vs bob #2 · 7:30 left · q quit")
        #expect(lines.dropFirst().contains { $0.contains("alice") && $0.contains("42") }, "the duel's own screen (its scoreboard) under the title")
    }

    @Test func itsGameOverLingersThenTheNextBoardIsWatched() {
        var (app, _) = Self.tv([ArenaTVTests.top, ArenaTVTests.second])
        _ = Self.watching(&app, ArenaTVTests.top.match, at: 0)
        let over = WireEvent(match: ArenaTVTests.top.match, seq: 6, time: 9_000, body: .gameOver(
            MatchResult(reason: .noSetsLeft, by: nil, scores: [12, 9], winner: .first), seed: 7))
        #expect(app.receive(.event(over), on: .board, at: 9_000).allSatisfy { $0.effect != .connect })
        #expect(Self.text(app, at: 9_000)[0] == "TV friday · duel 3: fayzer #1 vs bob #2 · next board in 3 s · q quit")
        #expect(app.nextWake(at: 9_000) ?? .max <= 9_000 + ArenaTV.lingerMs)
        let next = app.tick(at: 9_000 + ArenaTV.lingerMs)
        #expect(next.contains(ArenaTVEffect(.board, .disconnect)) && next.contains(ArenaTVEffect(.board, .connect)))
        #expect(Self.watching(&app, ArenaTVTests.second.match, at: 12_000).contains { if case .join(let join) = $0 { join.match == "arena-friday-4" } else { false } })
        #expect(Self.text(app, at: 12_000)[0].hasPrefix("TV friday · duel 4: cy #3 vs ann #14"))
    }

    /// The duel lives on another node: its spectator follows the redirect on the board's own
    /// connection, while the arena's stays where it is.
    @Test func theBoardFollowsARedirectToItsNode() {
        var (app, _) = Self.tv([ArenaTVTests.top])
        _ = app.connected(.board, at: 0)
        _ = app.receive(Self.welcome, on: .board, at: 0)
        let moved = app.receive(.redirect(Redirect(match: ArenaTVTests.top.match, address: "127.0.0.2:7400", ticket: nil), id: nil), on: .board, at: 5)
        #expect(moved.contains(ArenaTVEffect(.board, .connect)) && !moved.contains { $0.channel == .arena })
        #expect(app.redirectedPlace(.board) == .tcp(host: "127.0.0.2", port: 7400) && app.redirectedPlace(.arena) == nil)
        _ = app.connected(.board, at: 10)
        let joins = Self.sends(app.receive(Self.welcome, on: .board, at: 10), on: .board)
        #expect(joins.contains { if case .join(let join) = $0 { join.match == ArenaTVTests.top.match && join.role == .spectator } else { false } })
    }

    @Test func withNoBoardTheStandingsShowAndQuitLeaves() {
        var (app, effects) = Self.tv([])
        #expect(!effects.contains { $0.channel == .board })
        let lines = Self.text(app)
        #expect(lines[0] == "  Arena friday · Classic, rated · 7:30 left" && lines.contains { $0.contains("fayzer") })
        #expect(lines.last == "  The top board shows once a duel is under way. q quit")
        #expect(app.input(.key(.character("p")), at: 0).isEmpty, "a watcher pauses nothing")
        #expect(app.input(.key(.character("q")), at: 0) == [ArenaTVEffect(.arena, .quit(status: 0, message: nil))])
    }

    /// The viewer's name belongs to an account: the board's spectator takes the server's suggestion.
    @Test func aTakenNameGivesWayToTheSuggestionOnTheBoard() {
        var (app, _) = Self.tv([ArenaTVTests.top])
        _ = app.connected(.board, at: 0)
        _ = app.receive(Self.welcome, on: .board, at: 0)
        let taken = WireError(.nameTaken, "taken", details: ["suggestion": .string("viv2")])
        let again = Self.sends(app.receive(.error(taken, id: nil), on: .board, at: 5), on: .board)
        #expect(again.contains { if case .join(let join) = $0 { join.name == "viv2" && join.role == .spectator } else { false } })
        #expect(app.board != nil && app.outcome == nil)
    }

    /// Once the arena is over and its last duel too: its results asked for on the arena's
    /// connection, and the final standings with the winner shown.
    @Test func theFinalStandingsOnceTheArenaIsOver() {
        var (app, _) = Self.tv([])
        let over = app.receive(.arena(ArenaTVTests.arena([], phase: .finished), id: nil), on: .arena, at: 100)
        #expect(Self.sends(over, on: .arena) == [.arena(.results(arena: "friday"))] && app.tv.showing == .final)
        let results = ArenaResults(header: ArenaHeader(arena: "friday", variant: .classic, rated: true, state: .finished, endsAt: 480_000),
                                   standings: ArenaTVTests.arena([]).standings, winners: ["fayzer"])
        _ = app.receive(.arenaResults(results, id: nil), on: .arena, at: 200)
        let lines = Self.text(app, at: 200)
        #expect(Array(lines[0...1]) == ["  Arena friday is over · Classic, rated · final standings", "  Winner: fayzer"])
        #expect(lines.last == "  q quit")
    }

    /// A listed duel not made yet (its players not seated: the server says `no_such_match` to a
    /// spectator until the first sits) is watched again shortly, on a new connection, not ended;
    /// the standings show meanwhile.
    @Test func aListedBoardNotMadeYetIsWatchedAgainShortly() throws {
        var (app, _) = Self.tv([ArenaTVTests.top])
        _ = app.connected(.board, at: 0)
        _ = app.receive(Self.welcome, on: .board, at: 0)
        let refused = app.receive(.error(WireError(.noSuchMatch, "No match is called arena-friday-3."), id: nil), on: .board, at: 10)
        #expect(!refused.contains { $0.effect.isQuit } && app.outcome == nil, "\(refused)")
        #expect(refused.contains(ArenaTVEffect(.board, .disconnect)) && app.board == nil)
        #expect(app.tv.showing == .notMade(ArenaTVTests.top, until: 10 + ArenaTV.notMadeRetryMs))
        #expect(app.nextWake(at: 10) == 10 + ArenaTV.notMadeRetryMs)
        #expect(Self.text(app, at: 10)[0].contains("Arena friday"), "the standings meanwhile")
        #expect(!app.tick(at: 9 + ArenaTV.notMadeRetryMs).contains(ArenaTVEffect(.board, .connect)))
        #expect(app.tick(at: 10 + ArenaTV.notMadeRetryMs).contains(ArenaTVEffect(.board, .connect)))
        let joins = Self.watching(&app, ArenaTVTests.top.match, at: 20 + ArenaTV.notMadeRetryMs)
        let join = try #require(joins.first { if case .join = $0 { true } else { false } })
        guard case .join(let request) = join else { Issue.record("\(joins)"); return }
        #expect(request.role == .spectator && request.match == ArenaTVTests.top.match)
        #expect(Self.text(app, at: 20 + ArenaTV.notMadeRetryMs)[0].hasPrefix("TV friday · duel 3"), "the duel, once made")
    }

    /// A refused board the arena no longer lists has ended: its linger, then the standings; and a
    /// board gone from the arena's state while it waits to be watched again is not watched.
    @Test func aBoardRefusedEndsTheBoardNotTheTV() {
        var (app, _) = Self.tv([ArenaTVTests.top])
        _ = app.connected(.board, at: 0)
        _ = app.receive(Self.welcome, on: .board, at: 0)
        _ = app.receive(.arena(ArenaTVTests.arena([]), id: nil), on: .arena, at: 5)
        let refused = app.receive(.error(WireError(.noSuchMatch, "No match is called arena-friday-3."), id: nil), on: .board, at: 10)
        #expect(!refused.contains { $0.effect.isQuit } && app.outcome == nil, "\(refused)")
        #expect(app.tick(at: 10 + ArenaTV.lingerMs).allSatisfy { $0.effect != .connect } && app.board == nil)
        #expect(Self.text(app, at: 10 + ArenaTV.lingerMs)[0].contains("Arena friday"), "the standings")

        var (again, _) = Self.tv([ArenaTVTests.top])
        _ = again.connected(.board, at: 0)
        _ = again.receive(.error(WireError(.noSuchMatch, "No match is called arena-friday-3."), id: nil), on: .board, at: 10)
        _ = again.receive(.arena(ArenaTVTests.arena([]), id: nil), on: .arena, at: 20)
        #expect(again.tv.showing == .standings)
        #expect(again.tick(at: 10 + ArenaTV.notMadeRetryMs).allSatisfy { $0.effect != .connect })
    }

    @Test func anUnknownArenaEndsTheTVWithTheServersWords() {
        var app = ArenaTVApp(arena: "nope", options: ClientOptions(name: "viv"), size: TerminalSize(columns: 80, rows: 24))
        _ = app.connected(.arena, at: 0)
        _ = app.receive(Self.welcome, on: .arena, at: 0)
        let effects = app.receive(.error(WireError(.noSuchArena, "No arena is called nope."), id: nil), on: .arena, at: 10)
        #expect(effects.last == ArenaTVEffect(.arena, .quit(status: 1, message: "No arena is called nope.")))
    }

    /// Every size from 20×6 to 140×50, a board followed and the standings: the title (or the
    /// arena's) on the first row, cut with "…" when it does not fit, every row the screen's width.
    @Test func everySizeDrawsTheTitleAndTheBoardOrTheStandings() {
        for columns in stride(from: 20, through: 140, by: 6) {
            for rows in stride(from: 6, through: 50, by: 4) {
                let size = TerminalSize(columns: columns, rows: rows)
                var (app, _) = Self.tv([ArenaTVTests.top], size: size)
                _ = Self.watching(&app, ArenaTVTests.top.match, at: 0)
                let frame = app.compose(at: 0)
                let lines = frame.textLines
                #expect(lines.count == rows && frame.size == size, "\(columns)×\(rows)")
                let title = "TV friday · duel 3: fayzer #1 vs bob #2 · 7:30 left · q quit"
                let first = lines[0].replacingOccurrences(of: #"\s+$"#, with: "", options: .regularExpression)
                #expect(first == title || (first.hasSuffix("…") && title.hasPrefix(String(first.dropLast()))), "\(columns)×\(rows): \(first)")
                app.resize(to: TerminalSize(columns: columns, rows: rows), at: 0)
                let (standings, _) = Self.tv([], size: size)
                #expect(DoorMenuTests.trimmed(standings.compose(at: 0))[0].contains("Arena") || columns < 30, "\(columns)×\(rows)")
            }
        }
    }
}
