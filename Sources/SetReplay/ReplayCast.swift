import SetRules
import SetScreen
import SetServer
import SetWire

/// `setgame replay FILE --cast OUT`: a match as an asciinema v2 recording of what a spectator's
/// 80×24 terminal showed, at the pace it was played. The journal's events go, with their times,
/// into the same client app a `setgame watch` runs; each change of its screen is one output event.
package enum ReplayCast {
    /// The recording's terminal: the one most people open.
    package static let size = TerminalSize(columns: 80, rows: 24)
    /// Clears the screen before the first frame and the closing one.
    static let clear = "\u{1B}[H\u{1B}[2J"

    /// Writes the recording line by line to `write`: the header, then `[seconds, "o", text]`
    /// events whose times never decrease. The last event redraws the final screen whole, so it
    /// reads on its own. `observe` sees each event as the screen is given it.
    package static func record(_ replay: MatchReplay, title: String, observe: (WireEvent) -> Void = { _ in },
                               write: (String) -> Void) throws(MatchReplay.Failure) {
        var screen: Spectator?
        try replay.play { told in
            observe(told)
            if screen == nil {
                write(header(title: title, timestamp: told.time / 1_000))
                screen = Spectator(app: spectator(of: replay, at: told.time), start: told.time)
            }
            for line in screen?.take(told) ?? [] { write(line) }
        }
        if let last = screen?.closing { write(last) }
    }

    /// The spectator's screen as the events come: what each changed, as output events.
    struct Spectator {
        var app: ClientApp
        let start: Int64
        var last: ScreenBuffer?
        var now: Int64
        /// Events numbered afresh: the replay leaves presence changes out, the app wants no gaps.
        var seq = 0

        init(app: ClientApp, start: Int64) {
            self.app = app
            self.start = start
            now = start
        }

        /// One event at its time, after what the screen did by itself since the last one
        /// (notices and marks running out).
        mutating func take(_ told: WireEvent) -> [String] {
            let time = max(now, told.time)
            var lines: [String] = []
            while let wake = app.nextWake(at: now), wake > now, wake < time {
                now = wake
                lines += frame()
            }
            seq += 1
            var numbered = told
            numbered.seq = seq
            _ = app.receive(.event(numbered), at: time)
            now = time
            return lines + frame()
        }

        /// The screen at `now`, as the change from the last one (the first clears the screen).
        mutating func frame() -> [String] {
            let screen = app.compose(at: now)
            let diff = FrameRenderer.frameDiff(from: last, to: screen)
            defer { last = screen }
            guard last == nil || !diff.isEmpty else { return [] }
            return [ReplayCast.event(at: now - start, (last == nil ? ReplayCast.clear : "") + diff)]
        }

        /// The final screen redrawn whole.
        var closing: String? {
            last.map { ReplayCast.event(at: now - start, ReplayCast.clear + FrameRenderer.frameDiff(from: nil, to: $0)) }
        }
    }

    /// A spectator's app, joined to the match before its first event.
    static func spectator(of replay: MatchReplay, at time: Int64) -> ClientApp {
        let options = ClientConfiguration(name: "replay", match: replay.name, mode: replay.mode, role: .spectator,
                                          animation: false, serverAddress: "a journal")
        var app = ClientApp(state: ClientState(options: options, size: size))
        _ = app.start(at: time)
        _ = app.connected(at: time)
        _ = app.receive(.welcome(server: "setgame replay", versions: [1], time: time, limits: ServerLimits()), at: time)
        _ = app.receive(.joined(role: .spectator, match: replay.name, mode: replay.mode, seat: nil, token: nil, resumed: false, id: nil),
                        at: time)
        let empty = MatchView(match: replay.name, seq: 0, time: time, mode: replay.mode, phase: .waiting, game: 0, players: [],
                              spectators: 0, table: [], deck: replay.variant.cards.count, selection: [], selectionSeat: nil,
                              window: nil, shown: nil, tableChangedAt: time, rules: replay.rules, commitment: nil, result: nil,
                              seed: nil, rematchAsked: [], setsOnTable: nil, variant: replay.variant)
        _ = app.receive(.snapshot(empty), at: time)
        return app
    }

    /// The header line: the terminal's size, when the match began (Unix seconds) and a title.
    static func header(title: String, timestamp: Int64) -> String {
        JSONWriter.string(.object(["version": .int(2), "width": .int(Int64(size.columns)), "height": .int(Int64(size.rows)),
                                   "timestamp": .int(timestamp), "title": .string(title)]))
    }

    /// One output event, `ms` after the start.
    static func event(at ms: Int64, _ text: String) -> String {
        let seconds = Double(max(0, ms)) / 1_000
        return JSONWriter.string(.array([.double(seconds), .string("o"), .string(text)]))
    }
}
