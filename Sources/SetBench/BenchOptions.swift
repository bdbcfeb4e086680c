import SetNet
import SetRules

/// `setgame bench`.
package struct BenchOptions: Equatable, Sendable {
    package var matches = 100
    package var spectators = 2
    package var paceMs = 500
    package var durationSeconds = 10.0
    package var json = false
    /// The variant every duel plays.
    package var variant = Variant.classic
    /// Load this server instead of starting one.
    package var server: ServerAddress?
    /// Measure one duel first alone, then while this abuse runs against the same server.
    package var abuse: AbuseKind?

    package init() {}
}
