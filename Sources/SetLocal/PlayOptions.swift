import Foundation
import SetBot
import SetNet
import SetRules

/// `setgame play`: a local server, a bot and the terminal client in one command.
package struct PlayOptions: Equatable, Sendable {
    package var level = PlayOptions.defaultLevel
    package var solo = false
    package var variant = Variant.classic
    /// Start afresh even when an unfinished game is kept.
    package var fresh = false
    package var seed: UInt64?
    /// Deal the day's deal (`DailyDeal`), kept apart from the ordinary kept game.
    package var daily = false
    package var name: String?
    /// Join this server instead of starting one.
    package var against: ServerAddress?
    /// With `against`: the games are not rated.
    package var casual = false
    package var colorblind = false
    package var animation = true
    package var rules = RuleSettings.standard

    package init() {}

    /// The bot a newcomer meets: easy, which a first-time player beats about half the time
    /// (README, "Choosing the first bot").
    package static let defaultLevel = BotLevel.easy

    /// The command that opens this very game again, as the player types it: a variant and a name
    /// other than the login name each keep a game apart, so both are named (`setgame play` alone
    /// would open another game).
    package func againCommand(_ command: String) -> String {
        var words = [command, "play"]
        if daily {
            words.append("--daily")
            if !solo { words += ["--level", level.rawValue] }
        } else if solo {
            words.append("--solo")
        }
        if variant != .classic { words += ["--mode", variant.rawValue] }
        if let name { words += ["--name", Self.shellQuoted(name)] }
        return words.joined(separator: " ")
    }

    /// `text` as one shell word: as it is when it holds only safe characters, else in single quotes.
    static func shellQuoted(_ text: String) -> String {
        let safe = !text.isEmpty && text.unicodeScalars.allSatisfy { scalar in
            ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || ("0"..."9").contains(scalar)
                || "-_.,@%+=:/".unicodeScalars.contains(scalar)
        }
        return safe ? text : "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}
