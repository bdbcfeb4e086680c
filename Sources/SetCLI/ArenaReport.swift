import SetWire

/// The lines `setgame arena` prints for each answer, within 80 columns.
package enum ArenaReport {
    /// The arenas listed, one a line; `now` is the server's time (its `welcome`).
    package static func lines(_ summaries: [ArenaSummary], now: Int64) -> [String] {
        guard !summaries.isEmpty else { return ["No arenas are running or starting."] }
        return summaries.map { summary in
            let when = switch summary.state {
            case .starting: "starts in \(timeLeft(summary.startsAt - now))"
            case .running: "\(timeLeft(summary.endsAt - now)) left"
            case .finished: "finished"
            }
            let leader = summary.leader.map { ", leader \(ServerText.printable($0))" } ?? ""
            return "\(summary.arena)  \(summary.variant.rawValue) \(summary.rated ? "rated" : "casual")  \(when)  "
                + "\(summary.players) player\(summary.players == 1 ? "" : "s")\(leader)"
        }
    }

    /// An arena's standings, and its winners once it is over.
    package static func lines(_ results: ArenaResults) -> [String] {
        var lines = ["\(results.arena)  \(results.variant.rawValue) \(results.rated ? "rated" : "casual")  \(results.state.rawValue)"]
        if results.standings.isEmpty { lines.append("Nobody has joined.") }
        for entry in results.standings {
            let performance = entry.performance.map { "  perf \($0)" } ?? ""
            let bot = entry.bot ? " (bot)" : ""
            lines.append("\(entry.rank). \(ServerText.printable(entry.name))\(bot)  \(entry.score) pts  \(entry.games) games  \(entry.wins) wins\(performance)")
        }
        if results.state == .finished, !results.winners.isEmpty {
            lines.append("Won by \(results.winners.map { ServerText.printable($0) }.joined(separator: ", ")).")
        }
        return lines
    }

    /// The arena just opened.
    package static func lines(created view: ArenaView, now: Int64) -> [String] {
        let start = view.startsAt > now ? "starts in \(timeLeft(view.startsAt - now))" : "running now"
        return ["Opened \(view.arena): \(view.variant.rawValue) \(view.rated ? "rated" : "casual"), \(minutes(view.endsAt - view.startsAt)), \(start)."]
    }

    /// A time to come: in seconds under a minute ("starts in 5 s", not "1 minute"), else in minutes.
    package static func timeLeft(_ ms: Int64) -> String {
        ms > 0 && ms < 59_500 ? "\(max(1, (ms + 500) / 1_000)) s" : minutes(ms)
    }

    /// To the nearest minute (the answer comes a few milliseconds after the welcome's time),
    /// and at least one while any time is left.
    static func minutes(_ ms: Int64) -> String {
        let whole = ms <= 0 ? 0 : max(1, (ms + 30_000) / 60_000)
        return whole == 1 ? "1 minute" : "\(whole) minutes"
    }
}
