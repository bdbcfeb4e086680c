import SetRules
import SetWire

/// Where the seeds of new games come from.
package enum SeedSource: Sendable, Equatable {
    /// From the system's cryptographic generator: nobody can predict a deal.
    case random
    /// `start`, `start + 1`, ... for each new game in turn: for tests and `--seed`.
    case counting(from: UInt64)
}

/// Everything `setgame serve` can be told.
package struct ServerConfig: Sendable, Equatable {
    package var host = "127.0.0.1"
    package var port: UInt16 = 7380
    package var rules = RuleSettings.standard
    package var limits = ServerLimits()
    package var seeds = SeedSource.random
    /// Where match journals are kept; nil keeps none (matches do not survive a restart).
    package var dataDirectory: String?
    /// How long a line may stay unfinished before the connection is closed (slow-drip clients).
    package var partialLineTimeoutMs: Int64 = 10_000
    /// Matches beyond this are refused (`server_full`); it bounds memory, open journals and lists.
    package var maxMatches = 4_096
    package var serverName = "setgame"
    /// What one client address may hold; nil fields take their share of the server-wide limit.
    package var perAddress = AddressShares()
    /// How many finished journals `finished/` keeps, and for how long.
    package var finished = FinishedKeeping()
    /// How the match list is served.
    package var list = ListPacing()
    /// How often spectators are told and written to.
    package var spectators = SpectatorPacing()
    /// Matches by name whose seats only their tokens may take: a join to one must carry one of
    /// them (its first join takes a seat under it, in the match's mode and variant), anyone else
    /// is refused. `setgame play` keeps its local game to the player and the bot this way.
    package var reservedMatches: [String: ReservedMatch] = [:]
    /// Who may talk, how much, and where the operator lists whom it silenced.
    package var chat = ChatPolicy()
    /// Where the ssh door connects, and who may.
    package var door = DoorEntrance()
    /// Tests inject one to make journal writes fail as a full disk would.
    package var journalFaults: JournalFaults?
    /// The most a duel claim is credited for its sender's distance (see Protocol.md, "Fair claim
    /// races"); 0 decides every claim on arrival and sends no measuring pings. `setgame serve`
    /// defaults to `defaultLagCompensationMs`; a config built in code starts with it off.
    package var lagCompensationMs: Int64 = 0
    /// The cap `setgame serve` uses unless told otherwise.
    package static let defaultLagCompensationMs: Int64 = 200
    /// The arenas kept on a schedule (`serve --arena-schedule`, `ArenaSchedule`), kept with
    /// the store that makes each once (`AccountsSettings.arenaSchedules`).
    package var arenaSchedules: [ArenaSchedule] {
        get { accounts.arenaSchedules }
        set { accounts.arenaSchedules = newValue }
    }
    /// An arena duel's seat wait at most (`AccountsSettings.arenaSeatWaitMs`).
    package var arenaSeatWaitMs: Int64 {
        get { accounts.arenaSeatWaitMs }
        set { accounts.arenaSeatWaitMs = newValue }
    }
    /// Where the accounts are kept, and the faults tests inject into the accounts store.
    package var accounts = AccountsSettings()
    /// Tests inject one to make the accounts store's changes fail as a full disk would.
    package var storeFaults: StoreFaults? {
        get { accounts.faults }
        set { accounts.faults = newValue }
    }
    /// Where the accounts are kept (`AccountsSettings.store`).
    package var store: StoreLocation? {
        get { accounts.store }
        set { accounts.store = newValue }
    }
    /// Several servers sharing one PostgreSQL store (`--node NAME --advertise HOST:PORT`).
    package var cluster: ClusterSettings {
        get { accounts.cluster }
        set { accounts.cluster = newValue }
    }
    /// New accounts and renames an address, its network and an account may write (issue 32).
    package var recordLimits = RecordLimits()

    package init() {}

    /// The per-address limits in force: explicit ones, or a sixteenth of the server-wide limit.
    package var addressLimits: AddressLimits {
        AddressLimits(connections: perAddress.connections ?? max(4, limits.maxConnections / AddressShares.share),
                      matches: perAddress.matches ?? max(4, maxMatches / AddressShares.share),
                      waitingMatches: perAddress.waitingMatches ?? AddressShares.waitingDefault,
                      connectsPerSecond: perAddress.connectsPerSecond ?? AddressShares.connectsPerSecondDefault,
                      placements: perAddress.placements ?? AddressShares.placementsDefault,
                      arenaPlayers: perAddress.arenaPlayers ?? AddressShares.arenaPlayersDefault,
                      unattended: perAddress.unattended ?? AddressShares.unattendedDefault)
    }
}

/// Finished journals kept in `finished/`: the newest `keep`, none older than `maxAgeDays`.
package struct FinishedKeeping: Sendable, Equatable {
    package var keep = 10_000
    package var maxAgeDays = 30
}

/// The match list: how long one ordering serves every `list` before it is rebuilt, and what a
/// `list` costs against the sender's rate limit, in messages (it is the dearest request).
package struct ListPacing: Sendable, Equatable {
    package var cacheMs: Int64 = 1_000
    package var cost = 5
}

/// Spectators' pacing.
package struct SpectatorPacing: Sendable, Equatable {
    /// The least time between two `spectators` events of one match: joins and leaves in between
    /// are announced as one count.
    package var announceMs: Int64 = 1_000
    /// The spectators of a match watched by hundreds get its events in one write per this long:
    /// a quarter of a second is nothing to a watcher, and it caps a crowd at four writes a second each.
    package var crowdRoundMs: Int64 = 250
}

/// The ssh door's entrance (`setgame door`): a Unix socket whose peers may say who their player
/// is and where from (nil: no door), and the uids whose processes may use it (empty: the
/// server's own).
package struct DoorEntrance: Sendable, Equatable {
    package var socket: String?
    package var uids: Set<UInt32> = []
}

/// A match kept for the holders of its tokens (`ServerConfig.reservedMatches`).
package struct ReservedMatch: Sendable, Equatable {
    package var tokens: Set<String>
    package var mode: Mode
    package var variant: Variant
    /// A match reserved for one occasion (an accepted challenge) lapses if nobody has made it
    /// by then, and goes with its match: a thousand accepted challenges nobody joins must not
    /// stay in memory. Nil: kept while the server runs (`setgame play`'s own match).
    package var unclaimedUntil: Instant?
    /// False for a casual arena's duel: every seat is taken casual, so the game moves no rating.
    package var rated: Bool

    package init(tokens: Set<String>, mode: Mode, variant: Variant = .classic, unclaimedUntil: Instant? = nil, rated: Bool = true) {
        self.tokens = tokens
        self.mode = mode
        self.variant = variant
        self.unclaimedUntil = unclaimedUntil
        self.rated = rated
    }

    /// Whether it lapsed by `now`: one occasion's, whose match nobody made (`made`) by its deadline.
    func lapsed(at now: Instant, made: Bool) -> Bool {
        guard let until = unclaimedUntil, !made else { return false }
        return until.milliseconds <= now.milliseconds
    }
}

/// Per-address limits as configured; nil means the default share.
package struct AddressShares: Sendable, Equatable {
    package var connections: Int?
    package var matches: Int?
    package var waitingMatches: Int?
    package var connectsPerSecond: Int?
    package var placements: Int?
    package var arenaPlayers: Int?
    package var unattended: Int?
    /// The addresses of proxies whose connections begin with a PROXY v2 header
    /// (`--proxy-from`): each is counted under the client address it carries, for every limit
    /// here and every account-record allowance. Nobody else's header is read.
    package var proxies: Set<String> = []
    /// The lobby's size, and the share of it one address may hold.
    package var lobby = LobbySize()
    /// One address may hold at most 1/16 of the connections and of the matches.
    package static let share = 16
    package static let waitingDefault = 8
    /// New connections one address may open a second, in bursts of twice as many.
    package static let connectsPerSecondDefault = 20
    /// New named matches a node placed in the shared store for one address that no player made
    /// yet: as many as the duels one address may have waiting.
    package static let placementsDefault = waitingDefault
    /// Players one address may have in one arena at once: as many as the duels it may have
    /// waiting. Each one who never sits costs the player paired with them a seat wait.
    package static let arenaPlayersDefault = waitingDefault
    /// Matches one address created whose players have all gone (each waiting out its seat wait)
    /// that it may hold before it creates another: leaving costs nothing, so without this a few
    /// addresses could fill the server with games nobody plays, two minutes at a time.
    package static let unattendedDefault = 16

    package init(connections: Int? = nil, matches: Int? = nil, waitingMatches: Int? = nil, connectsPerSecond: Int? = nil,
                 placements: Int? = nil) {
        self.connections = connections
        self.matches = matches
        self.waitingMatches = waitingMatches
        self.connectsPerSecond = connectsPerSecond
        self.placements = placements
    }
}

/// What one client address may hold at once.
package struct AddressLimits: Sendable, Equatable {
    /// Open connections.
    package var connections: Int
    /// Live matches it created (by naming a new match, or by being the first to pair).
    package var matches: Int
    /// Of those, duels still waiting for their second player.
    package var waitingMatches: Int
    /// New connections a second (bursts of twice as many): a connect-and-leave loop is turned
    /// away at the door, for the cost of an accept, instead of costing a welcome and a join each.
    package var connectsPerSecond: Int
    /// Rows placed in the shared store for new named matches that no player has made yet (a
    /// node's `join` naming a match no node holds, `serve --node`): each one is written before
    /// any match exists, so an address with many names could fill the store with rows nobody plays.
    package var placements: Int = AddressShares.placementsDefault
    /// Players joined to one arena at once from it (on open connections; distinct names): the
    /// arena's room is on one node, so this holds for the whole service.
    package var arenaPlayers: Int = AddressShares.arenaPlayersDefault
    /// Of its live matches, those with no player connected (`AddressShares.unattendedDefault`).
    package var unattended: Int = AddressShares.unattendedDefault
}

/// Where a server keeps its accounts.
package struct AccountsSettings: Equatable, Sendable {
    /// Where the accounts are kept (`--store`): a SQLite file, PostgreSQL or memory. Nil: the
    /// SQLite file in the data folder (`StoreLocation.standard`), or SQLite in memory without one.
    package var store: StoreLocation?
    /// Tests inject one to make the accounts store's changes fail as a full disk would.
    package var faults: StoreFaults?
    /// `--empty-store`: start a new, empty SQLite store although the data folder holds journals
    /// (`StoreCheck.missingFile`); without it such a start is refused.
    package var allowsEmptyStore = false
    /// This server's place among several sharing a PostgreSQL store (`--node`), kept with the
    /// store it depends on.
    package var cluster = ClusterSettings()
    /// Whether the house bots' names (`bot-easy`, ...) are kept for the door's house bots. True
    /// on every server, door or not, since nodes share one store of names (issue 42 item 5);
    /// false only on `setgame play`'s own table, whose bot is the only player besides its owner.
    package var keepsHouseBotNames = true
    /// The arenas kept on a schedule: the store's unique names make each slot's arena once.
    package var arenaSchedules: [ArenaSchedule] = []
    /// How long an arena duel's seats wait for its players, at most (the server's seat wait if
    /// shorter): they are in the arena and told at once, so a no-show costs the one who came
    /// this long (guests who never sat held a real player two minutes each).
    package var arenaSeatWaitMs: Int64 = 30_000

    package init() {}
}
