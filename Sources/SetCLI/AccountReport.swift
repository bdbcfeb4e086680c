import Foundation
import SetRules
import SetWire

/// An account answer as lines a person reads at 80 columns. Pure: the answer in, text out.
package enum AccountReport {
    /// The answer's lines, none wider than 80 columns.
    package static func lines(_ info: AccountInfo) -> [String] {
        unclipped(info).map { $0.count > 80 ? String($0.prefix(79)) + "…" : $0 }
    }

    private static func unclipped(_ info: AccountInfo) -> [String] {
        let f = info.fields
        switch info.type {
        case .profile: return profile(f)
        case .history: return history(f)
        case .crosstable:
            return ["\(text(f["name"])) against \(text(f["other"])): \(int(f["wins"])) won, \(int(f["losses"])) lost, \(int(f["draws"])) drawn "
                    + "(\(plural(int(f["games"]), "game")))"]
        case .leaderboard: return leaderboard(f)
        }
    }

    private static func profile(_ f: [String: JSONValue]) -> [String] {
        var lines = ["\(text(f["name"]))\(f["bot"]?.boolValue == true ? " [bot]" : ""): \(plural(int(f["games"]), "game")), "
                     + "\(plural(int(f["wins"]), "win")), \(plural(int(f["losses"]), "loss", "losses")), \(plural(int(f["draws"]), "draw"))"
                     + (f["selfGames"] == nil ? "" : ", \(int(f["selfGames"])) against itself")]
        // Games with no win, loss or draw: "3 games, 2 wins, 0 losses, 0 draws" said nothing of the third.
        let unscored = int(f["games"]) - int(f["wins"]) - int(f["losses"]) - int(f["draws"]) - int(f["selfGames"])
        if unscored > 0 {
            // A server that does not count games against oneself leaves them among these.
            let kinds = f["selfGames"] == nil ? "solo, aborted before any set, or self-play (both seats)" : "solo, or aborted before any set"
            lines.append("  \(plural(unscored, "game")) with no result: \(kinds)")
        }
        let ratings = f["ratings"]?.objectValue ?? [:]
        if ratings.isEmpty { lines.append("  no rated games yet") }
        for variant in Variant.allCases {
            guard let rating = ratings[variant.rawValue]?.objectValue else { continue }
            let shown = "\(int(rating["rating"]))\(rating["provisional"]?.boolValue == true ? "?" : "")"
            lines.append("  \(pad(variant.rawValue, 8)) \(pad(shown, 6)) RD \(int(rating["deviation"])), \(plural(int(rating["games"]), "rated game"))")
        }
        if let best = f["bestSetMs"]?.intValue, let median = f["medianSetMs"]?.intValue {
            lines.append("  sets: best \(seconds(best)), median \(seconds(median))")
        }
        return lines + arenas(f["arenas"]?.arrayValue ?? [])
    }

    /// A profile's arenas, newest first: when each ends or ended, its name, variant, whether it
    /// was rated, its state, and the player's place among its players, score and games.
    private static func arenas(_ arenas: [JSONValue]) -> [String] {
        guard !arenas.isEmpty else { return [] }
        return ["  arenas, newest first:"] + arenas.compactMap(\.objectValue).map { a in
            let date = Date(timeIntervalSince1970: TimeInterval(int(a["wall"])))
            return "  \(stamp(date)) \(pad(text(a["arena"]), 20)) \(pad(text(a["variant"]), 7)) "
                + "\(pad(a["rated"]?.boolValue == true ? "rated" : "casual", 6)) \(pad(text(a["state"]), 8)) "
                + "\(int(a["rank"]))/\(int(a["players"]))  \(plural(int(a["score"]), "pt")), \(plural(int(a["games"]), "game"))"
        }
    }

    private static func history(_ f: [String: JSONValue]) -> [String] {
        let games = f["games"]?.arrayValue ?? []
        var lines = ["\(text(f["name"]))'s games, newest first"]
        if games.isEmpty { lines.append("  none yet") }
        for game in games {
            guard let g = game.objectValue else { continue }
            let seat = Int(int(g["seat"]))
            let players = g["players"]?.arrayValue?.compactMap(\.objectValue) ?? []
            let me = players.indices.contains(seat) ? players[seat] : [:]
            let other = players.indices.contains(1 - seat) ? players[1 - seat] : nil
            let date = Date(timeIntervalSince1970: TimeInterval(int(g["wall"])))
            // The match's name, which `replay` and a friend's `watch` take: the opponent's name
            // and then the match's give way, in that order, before the line is cut at 80 columns.
            var match = text(g["match"]), opponent = ""
            var score: String, rest = ""
            if g["result"]?.stringValue == "self" {
                score = " \(int(me["points"])):\(int(other?["points"])) against itself"
            } else if let other {
                score = " \(int(me["points"])):\(int(other["points"])) vs "
                opponent = String(text(other["name"]).prefix(10))
                rest = other["bot"]?.boolValue == true ? " [bot]" : other["guest"]?.boolValue == true ? " (guest)" : ""
            } else {
                score = " \(int(me["points"])) points"
            }
            if let before = me["ratingBefore"]?.intValue, let after = me["ratingAfter"]?.intValue {
                let change = RatingChange(seat: .first, before: Int(before), after: Int(after), provisional: me["provisional"]?.boolValue == true)
                rest += "  \(change.shown)"
            } else if g["rated"]?.boolValue != true {
                rest += "  unrated"
            }
            var over = 2 + 10 + 1 + match.count + 1 + 7 + 1 + 7 + score.count + opponent.count + rest.count - 80
            if over > 0, opponent.count > 4 {
                let cut = min(over, opponent.count - 4)
                opponent = String(opponent.prefix(opponent.count - cut))
                over -= cut
            }
            if over > 0, match.count > 4 { match = String(match.prefix(max(3, match.count - over - 1))) + "…" }
            let line = "  \(stamp(date)) \(match) \(pad(text(g["variant"]), 7)) \(pad(text(g["result"]), 7))" + score + opponent + rest
            lines.append(line)
        }
        if let next = f["next"]?.stringValue { lines.append("more: --after \(next)") }
        return lines
    }

    private static func leaderboard(_ f: [String: JSONValue]) -> [String] {
        let players = f["players"]?.arrayValue?.compactMap(\.objectValue) ?? []
        var lines = ["\(text(f["variant"])): the established players, best first"]
        if players.isEmpty { lines.append("  nobody yet: listed are RD 110 or less, 10 rated games, 5 opponents, over a day") }
        for player in players {
            let name = String(text(player["name"]).prefix(24)) + (player["bot"]?.boolValue == true ? " [bot]" : "")
            lines.append("  \(pad(String(int(player["rank"])), 4, right: true))  \(pad(name, 30)) \(pad(String(int(player["rating"])), 5, right: true))  RD \(int(player["deviation"]))")
        }
        if let next = f["next"]?.stringValue { lines.append("more: --after \(next)") }
        return lines
    }

    private static func text(_ value: JSONValue?) -> String { ServerText.printable(value?.stringValue ?? "?", limit: 40) }

    private static func int(_ value: JSONValue?) -> Int64 { value?.intValue ?? 0 }

    private static func plural(_ count: Int64, _ one: String, _ many: String? = nil) -> String {
        "\(count) \(count == 1 ? one : many ?? one + "s")"
    }

    private static func seconds(_ ms: Int64) -> String { String(format: "%.1f s", Double(ms) / 1000) }

    private static func pad(_ text: String, _ width: Int, right: Bool = false) -> String {
        let fill = String(repeating: " ", count: max(0, width - text.count))
        return right ? fill + text : text + fill
    }

    /// "2026-11-25", UTC: the same on every machine that reads it.
    private static func stamp(_ date: Date) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC") ?? calendar.timeZone
        let c = calendar.dateComponents([.year, .month, .day], from: date)
        return String(format: "%04d-%02d-%02d", c.year ?? 0, c.month ?? 0, c.day ?? 0)
    }
}
