import Foundation
import Glibc
import SetBot
import SetNet
import SetRules
import SetServer
import SetWire
import SetTestSupport
import Testing

/// Two instant bots play a whole duel through a real server while a spectator watches.
@Suite(.serialized) struct BotDuelTests {
    /// Joins `match` as a spectator and hands every message to `done` until it returns true;
    /// false if the connection ends first.
    func spectate(port: UInt16, match: String, name: String, until done: (ServerMessage) -> Bool) throws -> Bool {
        let client = try TestClient(port: port, receiveTimeoutMs: 30_000)
        do {
            // The bots connect first, but their joins wait for the accounts store off the loop:
            // the match may not exist yet when the spectator comes. It asks again until it does.
            for attempt in 0..<1_000 {
                client.send(.join(JoinRequest(role: .spectator, name: name, match: match)))
                client.send(.ping(time: Int64(attempt)))
                var missing = false, finished = false
                _ = try client.waitFor("the join's answer") { message -> Bool? in
                    if case .error(let error, _) = message, error.code == .noSuchMatch || error.code == .rateLimited {
                        missing = true
                    } else if case .pong = message {
                        return true
                    } else if !finished {
                        finished = done(message)
                    }
                    return nil
                }
                if finished { return true }
                if !missing { break }
            }
            _ = try client.waitFor("what the test watches for") { done($0) ? true : nil }
            return true
        } catch is ClientTimedOut {
            return false
        }
    }

    /// A server on a free port whose first seed is 7.
    static func server() throws -> RunningServer {
        var config = ServerConfig()
        config.seeds = .counting(from: 7)
        return try RunningServer(config: config, log: ServerLogLines().log)
    }

    /// Two instant bots for `match`: "left" (seed 0) and "right" (seed 1), who ask for no
    /// rematch unless `configure`, told each one's index, says otherwise.
    static func instantPair(port: UInt16, match: String, configure: (Int, inout BotOptions) -> Void = { _, _ in }) -> [BotOptions] {
        ["left", "right"].enumerated().map { index, name in
            var options = BotOptions()
            options.port = port
            options.match = match
            options.level = .instant
            options.name = name
            options.seed = UInt64(index)
            options.asksForRematch = false
            configure(index, &options)
            return options
        }
    }

    /// Watches until the first game is over; also counts how many times the table changed
    /// (deals and taken sets): the bots' chances to race.
    func watchUntilOver(port: UInt16, match: String) throws -> (view: MatchView, tableChanges: Int)? {
        var view: MatchView?, tableChanges = 0, over = false
        let ended = try spectate(port: port, match: match, name: "eve") { message in
            switch message {
            case .snapshot(let snapshot): view = snapshot
            case .insight(_, _, let sets):
                view?.setsOnTable = sets
                return over  // the last table's count follows the end of the game
            case .event(let event):
                #expect(view?.apply(event) == true)
                if case .rules(.tableChanged) = event.body { tableChanges += 1 }
                if case .gameOver = event.body { over = true }
            default: break
            }
            return false
        }
        return ended ? view.map { ($0, tableChanges) } : nil
    }

    /// What a newly arrived spectator is shown.
    func snapshot(port: UInt16, match: String) throws -> MatchView? {
        var view: MatchView?
        _ = try spectate(port: port, match: match, name: "zed") { message in
            if case .snapshot(let snapshot) = message { view = snapshot }
            return view != nil
        }
        return view
    }

    /// What a duel of two instant bots left once a spectator saw it end: the spectator's view and
    /// how often the table changed, a late spectator's snapshot, and the bots' own views and errors.
    struct FinishedDuel {
        var watched: MatchView
        var tableChanges: Int
        var truth: MatchView
        var views: [MatchView]
        var errorsReceived: Int
    }

    /// Two instant bots ("left" creates the match, in `variant` if given; "right" plays whatever it
    /// is) play one game through a real server while a spectator watches; the bots stop once they
    /// have seen all that a late spectator saw, not before.
    func playInstantBotDuel(variant: Variant? = nil) throws -> FinishedDuel? {
        let server = try Self.server()
        defer { server.stop() }
        let port = server.port
        let bots = try BotsOnAThread(Self.instantPair(port: port, match: "bots") { index, options in
            options.variant = index == 0 ? variant : nil
        })
        guard let (watched, tableChanges) = try watchUntilOver(port: port, match: "bots"),
              let truth = try snapshot(port: port, match: "bots") else {
            bots.stop()
            return nil
        }
        if !bots.stop(afterSeq: truth.seq, waitMs: 60_000) {
            bots.stop()
            Issue.record("the bots never caught up with event \(truth.seq)")
        }
        let runner = bots.runner
        return FinishedDuel(watched: watched, tableChanges: tableChanges, truth: truth,
                            views: runner.views.compactMap { $0 }, errorsReceived: runner.errorsReceived)
    }

    @Test func twoInstantBotsPlayToTheEndAndTheSpectatorAgrees() throws {
        let duel = try #require(try playInstantBotDuel())
        let (watched, tableChanges, truth, views) = (duel.watched, duel.tableChanges, duel.truth, duel.views)
        #expect(tableChanges >= 20)
        #expect(watched.phase == .over)
        #expect(watched.result?.reason == .noSetsLeft)
        #expect(watched.seed == 7)
        #expect(watched.deck == 0 && !SetLogic.anySet(in: watched.table))
        #expect(watched.players.map(\.score).reduce(0, +) > 0)
        #expect(watched.setsOnTable == 0)
        // An honest bot is refused only when it loses a race for a table: at most its claim and three picks.
        #expect(duel.errorsReceived <= 4 * tableChanges, "\(duel.errorsReceived) errors for \(tableChanges) tables")
        #expect(views.count == 2)
        for view in views + [truth] {
            // Later events can only be spectators coming and going.
            #expect(view.seq >= watched.seq && view.seq <= watched.seq + 3)
            #expect(view.table == watched.table && view.players.map(\.score) == watched.players.map(\.score))
            #expect(view.result == watched.result && view.seed == watched.seed && view.phase == .over)
        }
        #expect(views[0].asPlayerSees == views[1].asPlayerSees)
        #expect(views[0].asPlayerSees.tableChangedAt == watched.tableChangedAt)
    }
}

extension MatchView {
    /// The game as a player sees it: without what only spectators see, and without the spectator
    /// count and the numbering of events, which spectators coming and going after the end change
    /// (a bot stopped between two such events holds a view one `seq` behind the other's).
    var asPlayerSees: MatchView {
        var copy = self
        copy.setsOnTable = nil
        copy.spectators = 0
        copy.seq = 0
        copy.time = 0
        return copy
    }
}
