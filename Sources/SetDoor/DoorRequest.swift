import SetBot
import SetRules
import SetWire

/// What an ssh player asked the door for: the command they gave `ssh`, as sshd passes it in
/// `SSH_ORIGINAL_COMMAND`. Nothing else is ever run: the door is no shell.
package enum DoorRequest: Equatable, Sendable {
    /// No command: the menu.
    case menu
    /// `watch [MATCH]`: a match, or the list of live ones to pick from.
    case watch(match: String?)
    /// `join [MATCH]` or `play …`: a game.
    case play(DoorGame)
    /// `profile [NAME]`, `history`, `leaderboard [--mode M]`: a standing, printed.
    case standing(DoorStanding)

    /// Whether the request runs the full-screen client, which needs the terminal that a stock
    /// `ssh` given a command asks for only with `-t`; the standings are printed lines.
    package var needsTerminal: Bool {
        switch self {
        case .menu, .watch, .play: true
        case .standing: false
        }
    }

    /// What a request that needs a terminal and came without one is told: the same command with
    /// `-t`, on a line of its own to copy whole. `words` is the ssh command's words as sshd passed them.
    package static func noTerminal(_ words: String?, address: DoorAddress?) -> [String] {
        let words = (words ?? "").split(whereSeparator: { $0.isWhitespace }).joined(separator: " ")
        let lead = "setgame: this needs a terminal, which ssh gives a command only with -t"
        guard let address else { return [lead + ": add -t to your ssh command."] }
        return [lead + "; type:", "  " + (words.isEmpty ? address.terminalCommand : address.command(words))]
    }

    /// The one line a refused command gets.
    package static let usage = "usage: ssh HOST [watch [MATCH] | join [MATCH] [--mode M] | play [--mode M] [--level L] [--solo]"
        + " | profile [NAME] | history | leaderboard [--mode M]]"

    /// Parses `SSH_ORIGINAL_COMMAND`; nil or blank is the menu. Words are split on white space
    /// (match names hold no spaces), with no quoting, globbing or anything a shell would do.
    package static func parse(_ original: String?) -> Result<DoorRequest, DoorUsageError> {
        let words = (original ?? "").split(whereSeparator: { $0.isWhitespace }).map(String.init)
        guard let first = words.first else { return .success(.menu) }
        var rest = words.dropFirst()
        switch first {
        case "watch":
            guard rest.count <= 1 else { return .failure(DoorUsageError("watch takes one match name")) }
            if let match = rest.first, !ClientMessageDecoder.isAcceptable(matchName: match) {
                return .failure(DoorUsageError("'\(match)' is not a match name"))
            }
            return .success(.watch(match: rest.first))
        case "join":
            var match: String?
            if let word = rest.first, !word.hasPrefix("-") {
                guard ClientMessageDecoder.isAcceptable(matchName: word) else { return .failure(DoorUsageError("'\(word)' is not a match name")) }
                match = word
                rest = rest.dropFirst()
            }
            return options(Array(rest), allowed: ["--mode"]).map { .play(DoorGame(opponent: .anyone(match: match), variant: $0.variant)) }
        case "play":
            return options(Array(rest), allowed: ["--mode", "--level", "--solo"]).map { found in
                .play(DoorGame(opponent: found.solo ? .nobody : .bot(found.level ?? DoorGame.defaultLevel), variant: found.variant))
            }
        case "profile":
            guard rest.count <= 1 else { return .failure(DoorUsageError("profile takes one player's name")) }
            if let name = rest.first, !ClientMessageDecoder.isAcceptable(name: name, maxLength: ClientMessageDecoder.maxNameLength) {
                return .failure(DoorUsageError("'\(name)' is not a player's name"))
            }
            return .success(.standing(.profile(name: rest.first)))
        case "history":
            guard rest.isEmpty else { return .failure(DoorUsageError("history takes nothing: it is your own")) }
            return .success(.standing(.history))
        case "leaderboard":
            return options(Array(rest), allowed: ["--mode"]).map { .standing(.leaderboard($0.variant ?? .classic)) }
        default:
            return .failure(DoorUsageError("'\(first)' is not a door command"))
        }
    }

    private struct Found {
        var variant: Variant?
        var level: BotLevel?
        var solo = false
    }

    private static func options(_ words: [String], allowed: Set<String>) -> Result<Found, DoorUsageError> {
        var found = Found()
        var index = 0
        while index < words.count {
            let word = words[index]
            guard allowed.contains(word) else { return .failure(DoorUsageError("'\(word)' is not an option here")) }
            if word == "--solo" {
                found.solo = true
                index += 1
                continue
            }
            guard index + 1 < words.count else { return .failure(DoorUsageError("\(word) needs a value")) }
            let value = words[index + 1].lowercased()
            if word == "--mode" {
                guard let variant = Variant(rawValue: value) else {
                    return .failure(DoorUsageError("--mode is one of \(Variant.allCases.map(\.rawValue).joined(separator: ", "))"))
                }
                found.variant = variant
            } else {
                guard let level = BotLevel(rawValue: value), level != .instant else {
                    return .failure(DoorUsageError("--level is one of \(DoorGame.levels.map(\.rawValue).joined(separator: ", "))"))
                }
                found.level = level
            }
            index += 2
        }
        return .success(found)
    }
}

/// A standing the door prints: a profile (yours without a name), your games, the best players.
package enum DoorStanding: Equatable, Sendable {
    case profile(name: String?)
    case history
    case leaderboard(Variant)
}

/// A game through the door: against whom, in which variant.
package struct DoorGame: Equatable, Sendable {
    package enum Opponent: Equatable, Sendable {
        /// Whoever waits, or the players of the named match.
        case anyone(match: String?)
        /// A bot the door starts beside the player.
        case bot(BotLevel)
        /// A solo game.
        case nobody
    }

    package var opponent: Opponent
    /// Nil plays the classic game (or a named match's own).
    package var variant: Variant?

    package init(opponent: Opponent, variant: Variant? = nil) {
        self.opponent = opponent
        self.variant = variant
    }

    /// The door command that asks for this game again (`join friday --mode ultra`): what a
    /// player's plain `ssh` offers to go back to after a drop.
    package var command: String {
        let mode = variant.map { $0 == .classic ? "" : " --mode \($0.rawValue)" } ?? ""
        switch opponent {
        case .anyone(let match): return "join" + (match.map { " " + $0 } ?? "") + mode
        case .bot(let level): return "play --level \(level.rawValue)" + mode
        case .nobody: return "play --solo" + mode
        }
    }

    /// The game in a few words, for the menu's way back to it ("your quick duel, Ultra").
    package var summary: String {
        let what = switch opponent {
        case .anyone(nil): "your quick duel"
        case .anyone(let match?): "your duel in \(match)"
        case .bot(let level): "your duel against the \(level.rawValue) bot"
        case .nobody: "your solo game"
        }
        return what + (variant.map { $0 == .classic ? "" : ", " + $0.title } ?? "")
    }

    /// The bot a newcomer meets, as `setgame play` does.
    package static let defaultLevel = BotLevel.easy
    /// The levels a person may pick: the instant bot is for load tests.
    package static let levels: [BotLevel] = [.easy, .normal, .hard]
}

/// A command the door refuses, with the reason; the player sees it and the usage line.
package struct DoorUsageError: Error, Equatable, Sendable {
    package var reason: String

    package init(_ reason: String) { self.reason = reason }

    /// What the player reads: the reason, then the usage, on one line.
    package var line: String { "setgame: \(reason); \(DoorRequest.usage)" }
}
