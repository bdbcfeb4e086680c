import SetNet

/// What the load generator counts for the matches on one server; a run's result is their sum,
/// and each server's own is reported beside it (`setgame bench --server A,B,C`).
struct LoadTally {
    var matches = 0
    var connections = 0
    var actions = 0
    var gamesCompleted = 0
    var eventsDelivered = 0
    var bytesReceived = 0
    var errors: [String: Int] = [:]
    var drops = 0
    /// `redirect` answers followed to reach this server.
    var redirects = 0
    var actionSamples: [UInt32] = []
    var pingSamples: [UInt32] = []

    /// All of `tallies` together.
    static func sum(_ tallies: [LoadTally]) -> LoadTally {
        var total = LoadTally()
        for tally in tallies {
            total.matches += tally.matches
            total.connections += tally.connections
            total.actions += tally.actions
            total.gamesCompleted += tally.gamesCompleted
            total.eventsDelivered += tally.eventsDelivered
            total.bytesReceived += tally.bytesReceived
            total.errors.merge(tally.errors, uniquingKeysWith: +)
            total.drops += tally.drops
            total.redirects += tally.redirects
            total.actionSamples += tally.actionSamples
            total.pingSamples += tally.pingSamples
        }
        return total
    }

    /// The result these counts make over a run of `seconds`.
    func result(seconds: Double) -> LoadResult {
        var result = LoadResult()
        result.matches = matches
        result.connections = connections
        result.actions = actions
        result.gamesCompleted = gamesCompleted
        result.eventsDelivered = eventsDelivered
        result.bytesReceived = bytesReceived
        result.errors = errors
        result.drops = drops
        result.redirects = redirects
        result.actionLatency = Percentiles(microseconds: actionSamples)
        result.pingLatency = Percentiles(microseconds: pingSamples)
        result.seconds = seconds
        return result
    }
}

/// One loaded server's share of a run: where it is, and what its matches measured.
package struct ServerLoad: Sendable {
    /// "HOST:PORT" as listed, or as a `redirect` named it.
    package var address: String
    package var load: LoadResult
}

extension ServerAddress {
    /// "HOST:PORT", as a `redirect` names a server, read back; nil if it is not that.
    init?(redirectAddress text: Substring) {
        guard let colon = text.lastIndex(of: ":"), let port = UInt16(text[text.index(after: colon)...]), port > 0 else { return nil }
        var host = text[..<colon]
        // An IPv6 address comes in brackets, as "[::1]:7380".
        if host.hasPrefix("["), host.hasSuffix("]") { host = host.dropFirst().dropLast() }
        guard !host.isEmpty else { return nil }
        self.init(host: String(host), port: port)
    }

    /// "HOST:PORT".
    var label: String { host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)" }
}
