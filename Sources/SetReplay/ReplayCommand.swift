import Foundation
import Glibc
import SetRules
import SetServer
import SetWire

/// `setgame replay FILE`: a finished (or live) match, move by move, with the deal checked; with
/// `--cast OUT`, the same match as a recording of what a spectator's terminal showed.
package enum ReplayCommand {
    /// Runs the command, printing through `out` and `err`; returns the exit status (2 when a
    /// revealed seed breaks its commitment or does not deal the table shown, with or without
    /// `--cast`: `DealCheck`).
    package static func run(_ options: ReplayOptions, out: (String) -> Void, err: (String) -> Void) -> Int32 {
        let match: MatchReplay
        do { match = try MatchReplay.open(options.file) } catch {
            err("setgame replay: \(error)")
            return 1
        }
        return run(match, options, out: out, err: err)
    }

    /// Replays an opened match as `options` say: as text, or as a cast to a file.
    static func run(_ match: MatchReplay, _ options: ReplayOptions, out: (String) -> Void, err: (String) -> Void) -> Int32 {
        if let cast = options.cast { return record(match, to: cast, out: out, err: err) }
        let variant = match.variant == .classic ? "" : " of \(match.variant.title)"
        out("\(match.name): a \(match.mode.rawValue) match\(variant)")
        var names = ["player 1", "player 2"]
        var start: Int64?
        var previous: Int64?
        var deals = DealCheck(games: match.games)
        // Events are printed as the replay makes them: a long journal is never held in memory.
        do {
            try match.play { event in
                if options.speed > 0, let previous, event.time > previous {
                    // Waits are capped so a long pause in the match does not stall the replay.
                    usleep(UInt32(min(Double(event.time - previous) / options.speed, 3_000) * 1_000))
                }
                previous = event.time
                start = start ?? event.time
                let clock = String(format: "%8.1fs", Double(event.time - (start ?? 0)) / 1_000)
                if case .playerJoined(let seat, let name, _, _) = event.body { names[seat.rawValue] = name }
                deals.observe(event)
                guard let line = ReplayText.describe(event.body, names: names, variant: match.variant) else { return }
                out("\(clock)  \(line)")
            } onChat: { chat in
                let clock = String(format: "%8.1fs", Double(chat.time - (start ?? chat.time)) / 1_000)
                out("\(clock)  \(ReplayText.describe(chat))")
            } onNote: { time, note in
                out(String(format: "%8.1fs", Double(time - (start ?? time)) / 1_000) + "  " + note)
            }
        } catch {
            err("setgame replay: \(error)")
            return 1
        }
        deals.lines.forEach(out)
        return deals.status
    }

    /// Writes the cast to `path`, replaced whole (written beside, then renamed).
    static func record(_ match: MatchReplay, to path: String, out: (String) -> Void, err: (String) -> Void) -> Int32 {
        let temporary = "\(path).\(getpid()).tmp"
        guard let file = fopen(temporary, "w") else {
            err("setgame replay: cannot write \(temporary): \(String(cString: strerror(errno)))")
            return 1
        }
        var failed = false
        var deals = DealCheck(games: match.games)
        do {
            let clock = JournalWallClock(path: match.path, lastMs: match.lastMs)
            try ReplayCast.record(match, title: "setgame: \(match.name)", unixSeconds: { clock?.seconds(at: $0) ?? Int64(time(nil)) },
                                  observe: { deals.observe($0) }) { line in
                if fputs(line + "\n", file) < 0 { failed = true }
            }
        } catch {
            fclose(file)
            unlink(temporary)
            err("setgame replay: \(error)")
            return 1
        }
        if fclose(file) != 0 || failed || rename(temporary, path) != 0 {
            let reason = String(cString: strerror(errno))
            unlink(temporary)
            err("setgame replay: cannot write \(path): \(reason)")
            return 1
        }
        // The same verdict as the text replay's, and the same exit status.
        deals.lines.forEach(out)
        out("setgame replay: \(match.name) as a spectator saw it, in \(path) (play it with: asciinema play \(path))")
        return deals.status
    }
}
