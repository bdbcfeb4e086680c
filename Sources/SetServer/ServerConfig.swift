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
public struct ServerConfig: Sendable {
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
    /// Tests inject one to make journal writes fail as a full disk would.
    public var journalFaults: JournalFaults?

    public init() {}
}
