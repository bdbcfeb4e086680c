import SetWire

/// A node that holds the match asked for is away: when the session asks again, and how many
/// times it has asked so far.
package struct NodeAwayWait: Hashable, Sendable {
    /// The server's words, with the match, the node and `retryAfterMs`.
    package var error: WireError
    /// Local time at which the join is sent again.
    package var retryAt: Int64

    /// Whole seconds until the retry, rounded up, for a countdown.
    package func secondsLeft(at now: Int64) -> Int64 { max(0, retryAt.saturatingSubtracting(now).saturatingAdding(999) / 1_000) }

    /// The node's name, as the server gave it.
    package var node: String? { error.details["node"]?.stringValue }
    package var match: String? { error.details["match"]?.stringValue }
}

// Several servers (Protocol.md, "Several servers (nodes)"): a `redirect` moves the session to the
// node holding its match, and `node_away` waits and asks again. Written here once for the
// terminal, the door, the bots and the bench.
extension ClientSession {
    /// The most redirects one request follows: a join answered by a fourth is a loop, not a move.
    package static let maxRedirects = 3
    /// How many times a join answered `node_away` is sent again before the refusal is passed on.
    package static let maxNodeAwayRetries = 5
    /// The least wait before asking a node that is away again, whatever the server said.
    package static let leastNodeAwayWait: Int64 = 1_000

    /// Follows a redirect: the session now belongs to `redirect`'s node (`redirectedPlace`), and
    /// the driver connects there (closing this connection) and the join goes again, with the ticket if there is one.
    mutating func follow(_ redirect: Redirect) -> [SessionEffect] {
        guard redirectsFollowed < Self.maxRedirects else {
            stage = .offline
            return [.gaveUp(.redirectLoop(count: redirectsFollowed + 1, address: redirect.address))]
        }
        guard let place = redirect.place else {
            stage = .offline
            return [.gaveUp(.badRedirect(address: redirect.address))]
        }
        redirectsFollowed += 1
        redirectedPlace = place
        ticket = redirect.ticket
        redirectedMatch = redirect.match
        nodeAway = nil
        stage = .offline
        return [.log("\(redirect.match) lives on \(place.description); following the server there"), .redirected(to: place)]
    }

    /// How long a join answered `node_away` keeps asking (`awayNodePatience`).
    package enum AwayNodePatience: Hashable, Sendable {
        /// This many times, then the refusal is passed on: a bot or the bench, with nobody to quit it.
        case tries(Int)
        /// Until the person quits: a node's restart by its orchestrator can take a minute, and a
        /// lapsed lease makes every wait a second, so a few tries would give up within seconds.
        case untilQuit
    }

    /// A join answered `node_away`: wait as the server says (at least a second), then ask again,
    /// as often as the session's patience allows before passing the refusal on.
    mutating func wait(for error: WireError, at now: Int64) -> [SessionEffect] {
        if case .tries(let most) = awayNodePatience, nodeAwayRetries >= most {
            nodeAway = nil
            return [.refused(error)]
        }
        if nodeAwayRetries < .max { nodeAwayRetries += 1 }
        let asked = error.details["retryAfterMs"]?.intValue ?? Self.leastNodeAwayWait
        let wait = NodeAwayWait(error: error, retryAt: now.saturatingAdding(max(Self.leastNodeAwayWait, asked)))
        nodeAway = wait
        return [.nodeAway(wait)]
    }

    /// The join again once a node-away wait is over; nothing while it is not.
    mutating func retryAfterNodeAway(at now: Int64) -> [SessionEffect] {
        guard let wait = nodeAway, now >= wait.retryAt, stage == .joining else { return [] }
        nodeAway = nil
        return [.send(joinMessage), .log("asking again for \(wait.match ?? "the match")")]
    }

    /// A join answered: the redirects and waits that led to it are over.
    mutating func arrived() {
        redirectsFollowed = 0
        ticket = nil
        redirectedMatch = nil
        nodeAway = nil
        nodeAwayRetries = 0
    }
}
