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
    /// Load these servers instead of starting one: the duels go to them in turn.
    package var servers: [ServerAddress] = []
    /// Measure one duel first alone, then while this abuse runs against the same server.
    package var abuse: AbuseKind?
    /// Race a near and a far player instead (`--fairness`).
    package var fairness: FairnessOptions?
    /// After the server's run, run the reference relay on the same rooms and report the ratio.
    package var relay = false

    package init() {}
}

/// `setgame bench --fairness`: how many races, and the far player's link.
package struct FairnessOptions: Equatable, Sendable {
    package var races = 200
    package var delayMs = 80
    /// Besides the steady link, one this jittery (±); 0 races the steady one only.
    package var jitterMs = 20
    /// The server's cap when compensation is on.
    package var capMs = 200
    /// Besides, a near racer that answers echo pings this late against an honest near one
    /// (compensation on); 0 races no cheat.
    package var feignMs = 0

    package init() {}

    /// Each link raced with compensation on and off, then the cheat, if asked for.
    package var scenarios: [FairnessBench.Scenario] {
        let jitters = jitterMs > 0 ? [0, jitterMs] : [0]
        let links = jitters.flatMap { jitter in
            [capMs, 0].map { FairnessBench.Scenario(delayMs: delayMs, jitterMs: jitter, capMs: $0) }
        }
        return links + (feignMs > 0 ? [FairnessBench.Scenario(delayMs: 0, jitterMs: 0, capMs: capMs, feignMs: feignMs)] : [])
    }
}
