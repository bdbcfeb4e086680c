import SetClient
import SetRules
@testable import SetScreen
import SetWire

/// Views and apps in known states, for tests that never touch a socket or a terminal.
enum ClientFixtures {
    static let players = [PlayerInfo(seat: .first, name: "alice", present: true, score: 42),
                          PlayerInfo(seat: .second, name: "bob", present: true, score: 17)]

    static func view(cards: Int = 12, mode: Mode = .duel, phase: MatchPhase = .playing, seq: Int = 5) -> MatchView {
        MatchView(match: "duel-1", seq: seq, time: 1_000, mode: mode, phase: phase, game: 1,
                  players: mode == .solo ? [players[0]] : players, spectators: 2,
                  table: Array(Card.all.prefix(cards)), deck: 81 - cards, selection: [], selectionSeat: nil, window: nil,
                  shown: nil, tableChangedAt: 1_000, rules: .standard, commitment: nil, result: nil, seed: nil,
                  rematchAsked: [], setsOnTable: nil)
    }

    static func configuration(role: Role = .player, mode: Mode = .duel, animation: Bool = false,
                              theme: Theme = .standard) -> ClientOptions {
        var options = ClientOptions(host: "127.0.0.1", port: 7380, name: "alice", mode: mode, role: role, animation: animation)
        options.noColor = !theme.usesColor
        options.colorblind = theme.colorblind
        return options
    }

    /// An app that has joined seat 0 and holds `view`, as after welcome, joined and snapshot.
    static func app(_ view: MatchView, size: TerminalSize = TerminalSize(columns: 120, rows: 40), role: Role = .player,
                    animation: Bool = false, theme: Theme = .standard, at now: Int64 = 0) -> ClientApp {
        var app = ClientApp(state: ClientState(options: configuration(role: role, mode: view.mode, animation: animation, theme: theme),
                                               size: size))
        _ = app.start(at: now)
        _ = app.connected(at: now)
        _ = app.receive(.welcome(server: "test", versions: [1], time: 1_000, limits: ServerLimits()), at: now)
        _ = app.receive(.joined(role: role, match: view.match, mode: view.mode, seat: role == .player ? .first : nil,
                                token: role == .player ? "tok" : nil, resumed: false, id: nil), at: now)
        _ = app.receive(.snapshot(view), at: now)
        return app
    }

    static func event(_ body: EventBody, seq: Int, time: Int64 = 1_000) -> ServerMessage {
        .event(WireEvent(match: "duel-1", seq: seq, time: time, body: body))
    }

    /// The corner glyphs of every line set: a card drawn whole has one at each corner.
    static let corners: Swift.Set<Character> = Swift.Set(BoxLines.allCases.flatMap { lines in
        let g = lines.glyphs
        return [g.topLeft, g.topRight, g.bottomLeft, g.bottomRight]
    })
}
