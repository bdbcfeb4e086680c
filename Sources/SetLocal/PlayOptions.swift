import Foundation
import SetBot
import SetNet
import SetRules

/// `setgame play`: a local server, a bot and the terminal client in one command.
public struct PlayOptions: Equatable, Sendable {
    public var level = PlayOptions.defaultLevel
    public var solo = false
    public var variant = Variant.classic
    /// Start afresh even when an unfinished game is kept.
    public var fresh = false
    public var seed: UInt64?
    public var name: String?
    /// Join this server instead of starting one.
    public var against: ServerAddress?
    public var colorblind = false
    public var animation = true
    public var rules = RuleSettings.standard

    public init() {}

    /// The bot a newcomer meets: easy, which a first-time player beats about half the time
    /// (README, "Choosing the first bot").
    public static let defaultLevel = BotLevel.easy

    /// The command that opens this very game again, as the player types it: a variant and a name
    /// other than the login name each keep a game apart, so both are named (`setgame play` alone
    /// would open another game).
    public func againCommand(_ command: String) -> String {
        var words = [command, "play"]
        if solo { words.append("--solo") }
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
