import SetClient
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
    /// events whose times never decrease. The chat said during the match shows where it was said,
    /// as a spectator saw it. The last event redraws the final screen whole, so it reads on its own.
    /// `unixSeconds` turns a journal time (the server's clock, milliseconds) into wall-clock
    /// seconds, for the header's timestamp. `observe` sees each event as the screen is given it.
    package static func record(_ replay: MatchReplay, title: String, unixSeconds: (Int64) -> Int64,
                               observe: (WireEvent) -> Void = { _ in },
                               write: (String) -> Void) throws(MatchReplay.Failure) {
        var screen: Spectator?
        let ratings = replay.recordedRatings()
        var game = 0
        func begin(at time: Int64) {
            guard screen == nil else { return }
            write(header(title: title, timestamp: unixSeconds(time)))
            screen = Spectator(app: spectator(of: replay, at: time), start: time)
        }
        try replay.play { told in
            observe(told)
            begin(at: told.time)
            if case .gameStarted(let start) = told.body { game = start.game }
            for line in screen?.take(.event(withRatings(told, ratings[game])), at: told.time) ?? [] { write(line) }
        } onChat: { line in
            begin(at: line.time)
            for output in screen?.take(.chat(line), at: line.time) ?? [] { write(output) }
        }
        if let last = screen?.closing { write(last) }
    }

    /// A game-over event with the rating changes the accounts recorded for its game (`changes`),
    /// as the server told them: the journal keeps the event without them.
    static func withRatings(_ event: WireEvent, _ changes: [RatingChange]?) -> WireEvent {
        guard let changes, case .gameOver(let result, let seed, let told) = event.body, told.isEmpty else { return event }
        var rated = event
        rated.body = .gameOver(result, seed: seed, ratings: changes)
        return rated
    }

    /// The spectator's screen as the events come: what each changed, as output events.
    struct Spectator {
        var app: ClientApp
        let start: Int64
        var last: ScreenBuffer?
        var now: Int64
        /// Events numbered afresh: the replay leaves presence changes out, the app wants no gaps.
        var seq = 0
        /// How many screens were composed: what casting costs.
        var composed = 0

        init(app: ClientApp, start: Int64) {
            self.app = app
            self.start = start
            now = start
        }

        /// One message at its time, after what the screen did by itself since the last one
        /// (notices and marks running out). Only the screen's own changes wake it: the app's
        /// connection wakes (pings due, never answered here) once woke it every millisecond,
        /// composing 80×24 screens by the hundred thousand for a 6-minute duel.
        mutating func take(_ message: ServerMessage, at told: Int64) -> [String] {
            let time = max(now, told)
            var lines: [String] = []
            while let wake = app.nextScreenChange(at: now), wake < time {
                now = wake
                lines += frame()
            }
            if case .event(var event) = message {
                seq += 1
                event.seq = seq
                _ = app.receive(.event(event), at: time)
            } else {
                _ = app.receive(message, at: time)
            }
            now = time
            return lines + frame()
        }

        /// The screen at `now`, as the change from the last one (the first clears the screen).
        mutating func frame() -> [String] {
            let screen = app.compose(at: now)
            composed += 1
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
        let options = ClientOptions(name: "replay", match: replay.name, mode: replay.mode, role: .spectator, animation: false)
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
