import SetNet
import SetRules

/// `setgame bench`.
public struct BenchOptions: Equatable, Sendable {
    public var matches = 100
    public var spectators = 2
    public var paceMs = 500
    public var durationSeconds = 10.0
    public var json = false
    /// The variant every duel plays.
    public var variant = Variant.classic
    /// Load this server instead of starting one.
    public var server: ServerAddress?
    /// Measure one duel first alone, then while this abuse runs against the same server.
    public var abuse: AbuseKind?

    public init() {}
}
