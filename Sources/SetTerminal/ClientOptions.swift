import Glibc
import SetNet
import SetRules
import SetWire

/// Everything `setgame join` and `setgame watch` tell the terminal client.
package struct ClientOptions: Sendable, Equatable {
    package var host: String
    package var port: UInt16
    /// The name shown to the other player.
    package var name: String
    /// The match to join or watch; nil pairs a player with whoever is waiting, and shows a
    /// spectator the list of live matches to pick from.
    package var match: String?
    package var mode: Mode
    /// The variant asked for when joining as a player; nil plays whatever the match plays.
    package var variant: Variant?
    package var role: Role
    /// Cards also show their colour as a letter.
    package var colorblind: Bool
    /// False with `--no-animation`: cards appear and leave at once.
    package var animation: Bool
    /// Where seat tokens and the log are kept; nil means `ProcessEnvironment.stateFolder()`.
    package var stateDirectory: String?
    /// Lines printed before the screen takes over.
    package var banner: [String]
    /// How this program was started ("setgame", or the binary's full path), for the commands it prints.
    package var command = "setgame"
    /// How a friend can watch, shown in the help and before a local match starts: a command, and
    /// the words before it.
    package var watchCommand: String?
    package var watchLead = "Anyone can watch with:"
    /// Where the seat token is kept; nil keys it by server, mode, match and name.
    package var tokenKey: String?
    /// Set by `setgame play`: the match is local and begins at the player's first key.
    package var local: LocalMatch?
    /// No colour, as NO_COLOR asks: set by the door's menu, since ssh does not pass NO_COLOR on.
    package var noColor = false
    /// Set by `setgame door`: the server is reached through the door's Unix socket, not `host:port`.
    package var route: UnixRoute?
    /// Set by `setgame door`: the ssh command that reaches it (`ssh -p 2222 set@HOST`), which the
    /// commands shown to a friend start with.
    package var door: String?
    /// A line under the invitation (the door: how a friend without an ssh key gets in).
    package var inviteNote: String?
    /// Set by `setgame door` for a bot duel: its bot runs in this process, and is told true while
    /// help or the leave box is open (it steps out, which pauses the match), false after.
    package var botBeside: BotBeside?
    /// What the leave box says quitting keeps, instead of the server's seat wait (a guest's door
    /// session keeps no seat).
    package var quitNote: String?
    /// How the leave box says to come back within the seat wait; nil: "run the same command".
    package var rejoinHint: String?
    /// Whether leaving prints where the log is: not through the door, whose log is on the
    /// server's host, out of the player's reach.
    package var showsLogPath = true
    /// `--casual`: the games this player plays are not rated.
    package var casual = false
    /// Takes the server's suggestion when the name is taken (the ssh door: its player chose none).
    package var takesSuggestedName = false

    package init(host: String = "127.0.0.1", port: UInt16 = 7380, name: String = ClientOptions.loginName(),
                match: String? = nil, mode: Mode = .duel, role: Role = .player, colorblind: Bool = false,
                animation: Bool = true, stateDirectory: String? = nil, banner: [String] = [], variant: Variant? = nil) {
        self.variant = variant
        self.host = host
        self.port = port
        self.name = name
        self.match = match
        self.mode = mode
        self.role = role
        self.colorblind = colorblind
        self.animation = animation
        self.stateDirectory = stateDirectory
        self.banner = banner
    }

    /// The user's login name ($USER, then getlogin), trimmed to what the server accepts, or "player".
    package static func loginName(environment: [String: String] = ProcessEnvironment.variables) -> String {
        var candidates = [environment["USER"], environment["LOGNAME"]]
        if let login = getlogin() { candidates.append(String(cString: login)) }
        for case let name? in candidates {
            let cleaned = String(name.filter { $0.isLetter || $0.isNumber || "-_.".contains($0) }
                .prefix(ClientMessageDecoder.maxNameLength))
            if !cleaned.isEmpty { return cleaned }
        }
        return "player"
    }

    /// The state directory actually used.
    var resolvedStateDirectory: String { stateDirectory ?? ProcessEnvironment.stateFolder() }

    /// The key under which this command's seat token is kept: the same command finds it again,
    /// and another name (a second person on the same account) does not take the first one's seat.
    /// A variant asked for has a key of its own: `join --mode ultra` does not resume a classic seat.
    var seatKey: String {
        tokenKey ?? "\(host):\(port) \(mode.rawValue) \(match ?? "*") \(name)" + (variant.map { " \($0.rawValue)" } ?? "")
    }
}

/// A bot the door runs in this process beside its player, and how to hold it off while the
/// player reads help or the leave box: it steps out, which pauses the match as `play`'s does.
package struct BotBeside: Sendable, Equatable {
    package var hold: @Sendable (Bool) -> Void

    package init(hold: @escaping @Sendable (Bool) -> Void) { self.hold = hold }

    /// Any two are equal: the hook is a function, which cannot be compared.
    package static func == (lhs: BotBeside, rhs: BotBeside) -> Bool { true }
}

/// A match `setgame play` runs in this process: what the screen says about it, and how the client
/// tells the bot to begin and to hold off while help is open.
package struct LocalMatch: Sendable, Equatable {
    /// What the player faces, on the start box ("You against the easy bot"); nil begins at once.
    package var start: String?
    /// What quitting keeps, in the box that asks.
    package var quitNote: String
    /// Whether quitting mid-game asks first.
    package var confirmsQuit: Bool
    /// Shown when the game was resumed from the journal.
    package var resumeNote: String
    /// Called once, at the player's first key.
    package var onStart: @Sendable () -> Void
    /// Called with true when help opens, false when it closes: the match pauses meanwhile.
    package var onHold: @Sendable (Bool) -> Void
    /// A solo game's personal records so far; nil keeps none.
    package var records: PersonalRecords?
    /// Keeps the records a finished solo game left.
    package var saveRecords: @Sendable (PersonalRecords) -> Void = { _ in }
    /// The daily deal's date ("2026-11-27", UTC) when this is one; its end box names it.
    package var daily: String?

    package init(start: String?, quitNote: String, confirmsQuit: Bool, resumeNote: String,
                onStart: @escaping @Sendable () -> Void, onHold: @escaping @Sendable (Bool) -> Void) {
        self.start = start
        self.quitNote = quitNote
        self.confirmsQuit = confirmsQuit
        self.resumeNote = resumeNote
        self.onStart = onStart
        self.onHold = onHold
    }

    /// Two local matches that say the same are equal: the hooks are functions, which cannot be compared.
    package static func == (lhs: LocalMatch, rhs: LocalMatch) -> Bool {
        lhs.start == rhs.start && lhs.quitNote == rhs.quitNote && lhs.confirmsQuit == rhs.confirmsQuit
            && lhs.resumeNote == rhs.resumeNote && lhs.records == rhs.records && lhs.daily == rhs.daily
    }
}
