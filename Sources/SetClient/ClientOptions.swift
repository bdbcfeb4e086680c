import SetRules
import SetWire

/// Who a client is, where it goes and what it asks for, for every client there is: the terminal
/// (`setgame join`, `watch`, `play`, the ssh door), the bots and the bench. One value from the
/// command line to the protocol: the session (`ClientSession`) reads the join and the pings, the
/// screen (`ClientState`) the words and the colours, the terminal the socket and the files.
package struct ClientOptions: Hashable, Sendable {
    // Where the server is.
    package var host: String
    package var port: UInt16
    /// Set by `setgame door`: the server is reached through the door's Unix socket, not `host:port`.
    package var route: UnixRoute?

    // Who joins, and what for.
    /// The name shown to the other player.
    package var name: String
    package var role: Role
    /// The match to join or watch; nil pairs a player with whoever is waiting, and shows a
    /// spectator the list of live matches to pick from.
    package var match: String?
    package var mode: Mode
    /// The variant asked for when joining as a player; nil plays whatever the match plays.
    package var variant: Variant?
    /// The account key this client keeps for the server; nil: a guest.
    package var account: String?
    /// `--casual`: the games this player plays are not rated, even against another account.
    package var casual = false
    /// Says the player is a program, so its account is listed as a bot.
    package var bot = false
    /// On `name_taken` before the first join, take the name the server suggests and join again,
    /// instead of passing the refusal on: for a client whose player chose no name (the ssh
    /// door's `key-…` and `guest-…`), so nobody waits on a name forever.
    package var takesSuggestedName = false
    /// The kept token is for a seat reserved for this player (an accepted challenge's): a
    /// `bad_token` ends the session, since a fresh seat would be a public one.
    package var reservedSeat = false

    // The protocol's pace.
    package var pings: ClientSession.PingPolicy
    /// Send the join as soon as the connection opens, before the welcome: a bot's caller may
    /// count on the match existing once the bot is added; the ssh door, whose server is its own
    /// host's, saves the round trip. The terminal over TCP waits for the welcome.
    package var joinsAtOnce = false
    /// How often to ping: the server closes connections silent for 60 s.
    package var pingInterval = ClientSession.pingInterval
    /// How long the welcome or a pong may be owed before the server is given up on.
    package var unansweredLimit = ClientSession.unansweredLimit

    // The screen.
    /// Cards also show their colour as a letter.
    package var colorblind: Bool
    /// No colour, as NO_COLOR asks (the terminal sets it from the environment; the door's menu
    /// from the player's choice, since ssh does not pass NO_COLOR on).
    package var noColor = false
    /// False with `--no-animation`: cards appear and leave at once.
    package var animation: Bool
    /// Lines printed before the screen takes over.
    package var banner: [String]
    /// How this program was started ("setgame", or the binary's full path), for the commands it prints.
    package var command = "setgame"
    /// How a friend can watch, shown in the help and before a local match starts: a command, and
    /// the words before it.
    package var watchCommand: String?
    package var watchLead = "Anyone can watch with:"
    /// Set by `setgame door`: the ssh command that reaches it with a terminal (`ssh -t -p 2222
    /// set@HOST`), which the commands shown to a friend start with: a friend pastes them into
    /// their shell, where `setgame` and the server's address mean nothing.
    package var door: String?
    /// A line under the invitation (the door: how a friend without an ssh key gets in).
    package var inviteNote: String?
    /// What the leave box says quitting keeps, instead of the server's seat wait (a guest's door
    /// session keeps no seat; a local game is kept for the same command).
    package var quitNote: String?
    /// Whether quitting mid-game asks first; a kept solo game need not.
    package var confirmsQuit = true
    /// A match against a bot of this process (`setgame play`, the door's bot duel): what the player
    /// faces, on the start box ("You against the easy bot"); the bot joins at the player's first
    /// key, so a key typed on the way in (the door menu's Enter) starts the game, not claims in it.
    /// Nil begins at once.
    package var startBoxTitle: String?
    /// The first key, if it is Enter, is dropped: the door's menu was left with a shortcut (its
    /// digit), and the Enter a player types after it, as in a numbered menu, is the menu's, not
    /// a Set! in a game that is back (a bot duel's start box takes that Enter itself).
    package var dropsLeadingEnter = false
    /// A kept seat whose game turns out to be over is given up for a new one: the player asked for
    /// a game (the door's Quick duel), and a drop at the end screen left the old seat's token.
    package var startsAfreshAfterAFinishedGame = false
    /// Shown when the first join resumed a kept seat, instead of the plain "your seat is back".
    package var resumeNote: String?
    /// The daily deal's date ("2026-11-27", UTC) when the game is one: the end box names it.
    package var daily: String?
    /// A local solo game's personal records so far; nil keeps none.
    package var records: PersonalRecords?
    /// How the leave box says to come back within the seat wait (the door: "ssh in again").
    package var rejoinHint = "run the same command to come back"
    /// Whether leaving prints where the log is: not through the door, whose log is on the
    /// server's host, out of the player's reach.
    package var showsLogPath = true

    // What is kept.
    /// Where seat tokens and the log are kept; nil means the user's state folder.
    package var stateDirectory: String?
    /// Where the seat token is kept; nil keys it by server, mode, match and name.
    package var tokenKey: String?

    // Partners in this process.
    /// Set by `setgame play`: the match runs in this process, its bot started and held from here.
    package var local: LocalMatch?
    /// Set by `setgame door` for a bot duel: its bot runs in this process, starts at the player's
    /// first key, and is told true while help or the leave box is open (it steps out, which pauses
    /// the match), false after.
    package var botBeside: BotBeside?

    package init(host: String = "127.0.0.1", port: UInt16 = 7380, name: String, match: String? = nil, mode: Mode = .duel,
                role: Role = .player, colorblind: Bool = false, animation: Bool = true, stateDirectory: String? = nil,
                banner: [String] = [], variant: Variant? = nil, pings: ClientSession.PingPolicy = .measuring) {
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
        self.variant = variant
        self.pings = pings
    }

    /// Where a session with these options connects first.
    package var place: ServerPlace { route.map(ServerPlace.door) ?? .tcp(host: host, port: port) }

    /// "host:port", for the screen's messages and the commands it shows.
    package var serverAddress: String { "\(host):\(port)" }

    /// The key under which this command's seat token is kept: the same command finds it again,
    /// and another name (a second person on the same account) does not take the first one's seat.
    /// A variant asked for has a key of its own: `join --mode ultra` does not resume a classic seat.
    package var seatKey: String {
        tokenKey ?? "\(host):\(port) \(mode.rawValue) \(match ?? "*") \(name)" + (variant.map { " \($0.rawValue)" } ?? "")
    }
}
