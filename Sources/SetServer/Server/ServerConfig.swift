import SetRules
import SetWire

/// Where the seeds of new games come from.
public enum SeedSource: Sendable, Equatable {
    /// From the system's cryptographic generator: nobody can predict a deal.
    case random
    /// `start`, `start + 1`, ... for each new game in turn: for tests and `--seed`.
    case counting(from: UInt64)
}

/// Everything `setgame serve` can be told.
public struct ServerConfig: Sendable, Equatable {
    public var host = "127.0.0.1"
    public var port: UInt16 = 7380
    public var rules = RuleSettings.standard
    public var limits = ServerLimits()
    public var seeds = SeedSource.random
    /// Where match journals are kept; nil keeps none (matches do not survive a restart).
    public var dataDirectory: String?
    /// How long a line may stay unfinished before the connection is closed (slow-drip clients).
    public var partialLineTimeoutMs: Int64 = 10_000
    /// Matches beyond this are refused (`server_full`); it bounds memory, open journals and lists.
    public var maxMatches = 4_096
    public var serverName = "setgame"
    /// What one client address may hold; nil fields take their share of the server-wide limit.
    public var perAddress = AddressShares()
    /// Finished journals kept in `finished/`: the newest this many, none older than `keepFinishedDays`.
    public var keepFinished = 10_000
    public var keepFinishedDays = 30
    /// How long one ordering of the match list serves every `list` before it is rebuilt.
    public var listCacheMs: Int64 = 1_000
    /// What a `list` costs against the sender's rate limit, in messages: it is the dearest request.
    public var listCost = 5
    /// The least time between two `spectators` events of one match: joins and leaves in between
    /// are announced as one count.
    public var spectatorAnnounceMs: Int64 = 1_000
    /// The spectators of a match watched by hundreds get its events in one write per this long:
    /// a quarter of a second is nothing to a watcher, and it caps a crowd at four writes a second each.
    public var crowdRoundMs: Int64 = 250
    /// Matches by name whose seats only their tokens may take: a join to one must carry one of
    /// them (its first join takes a seat under it, in the match's mode and variant), anyone else
    /// is refused. `setgame play` keeps its local game to the player and the bot this way.
    public var reservedMatches: [String: ReservedMatch] = [:]
    /// Tests inject one to make journal writes fail as a full disk would.
    public var journalFaults: JournalFaults?

    public init() {}

    /// The per-address limits in force: explicit ones, or a sixteenth of the server-wide limit.
    public var addressLimits: AddressLimits {
        AddressLimits(connections: perAddress.connections ?? max(4, limits.maxConnections / AddressShares.share),
                      matches: perAddress.matches ?? max(4, maxMatches / AddressShares.share),
                      waitingMatches: perAddress.waitingMatches ?? AddressShares.waitingDefault,
                      connectsPerSecond: perAddress.connectsPerSecond ?? AddressShares.connectsPerSecondDefault)
    }
}

/// A match kept for the holders of its tokens (`ServerConfig.reservedMatches`).
public struct ReservedMatch: Sendable, Equatable {
    public var tokens: Set<String>
    public var mode: Mode
    public var variant: Variant

    public init(tokens: Set<String>, mode: Mode, variant: Variant = .classic) {
        self.tokens = tokens
        self.mode = mode
        self.variant = variant
    }
}

/// Per-address limits as configured; nil means the default share.
public struct AddressShares: Sendable, Equatable {
    public var connections: Int?
    public var matches: Int?
    public var waitingMatches: Int?
    public var connectsPerSecond: Int?
    /// One address may hold at most 1/16 of the connections and of the matches.
    public static let share = 16
    public static let waitingDefault = 8
    /// New connections one address may open a second, in bursts of twice as many.
    public static let connectsPerSecondDefault = 20

    public init(connections: Int? = nil, matches: Int? = nil, waitingMatches: Int? = nil, connectsPerSecond: Int? = nil) {
        self.connections = connections
        self.matches = matches
        self.waitingMatches = waitingMatches
        self.connectsPerSecond = connectsPerSecond
    }
}

/// What one client address may hold at once.
public struct AddressLimits: Sendable, Equatable {
    /// Open connections.
    public var connections: Int
    /// Live matches it created (by naming a new match, or by being the first to pair).
    public var matches: Int
    /// Of those, duels still waiting for their second player.
    public var waitingMatches: Int
    /// New connections a second (bursts of twice as many): a connect-and-leave loop is turned
    /// away at the door, for the cost of an accept, instead of costing a welcome and a join each.
    public var connectsPerSecond: Int
}
