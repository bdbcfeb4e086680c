import SetWire

/// A node that holds the match asked for is away: when the session asks again, and how many
/// times it has asked so far.
package struct NodeAwayWait: Hashable, Sendable {
    /// The server's words, with the match, the node and `retryAfterMs`.
    package var error: WireError
    /// Local time at which the join is sent again.
    package var retryAt: Int64

    /// Whole seconds until the retry, rounded up, for a countdown.
    package func secondsLeft(at now: Int64) -> Int64 { Self.secondsLeft(until: retryAt, at: now) }

    /// Whole seconds from `now` until `time`, rounded up, for a countdown.
    static func secondsLeft(until time: Int64, at now: Int64) -> Int64 { max(0, time.saturatingSubtracting(now).saturatingAdding(999) / 1_000) }

    /// The node's name, as the server gave it.
    package var node: String? { error.details["node"]?.stringValue }
    package var match: String? { error.details["match"]?.stringValue }
}

/// A node a redirect named did not answer: when the driver connects again (to the server it was
/// first given), and why, for a countdown.
package struct UnreachableWait: Hashable, Sendable {
    /// The node's address, as the redirect gave it.
    package var address: String
    package var reason: String
    /// Local time at which the driver connects again.
    package var retryAt: Int64

    package init(address: String, reason: String, retryAt: Int64) {
        self.address = address
        self.reason = reason
        self.retryAt = retryAt
    }

    /// Whole seconds until the retry, rounded up.
    package func secondsLeft(at now: Int64) -> Int64 { NodeAwayWait.secondsLeft(until: retryAt, at: now) }
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
    /// The longest wait before asking again, whatever the server said: a `retryAfterMs` of 2^53−1
    /// (a broken or hostile server) must not park a client for good.
    package static let longestNodeAwayWait: Int64 = 30_000
    /// How many times a program (a bot, the bench) connects again after a redirect's node did not
    /// answer, before it stops with the reason (`awayNodePatience` `.tries` counts these too).
    package static let maxUnreachableRetries = 5

    /// The match a resume names: the one this session joined, the one asked for, or the one its
    /// token names (`TokenMatch`: a token kept by an earlier run carries its match). Any node
    /// then finds where the seat is; only the match's own node says the token is dead.
    package var resumeMatch: String? {
        matchName ?? options.match ?? token.flatMap(TokenMatch.match(of:))
    }

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
        greetedHere = false  // by that node, not yet
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
        let wait = NodeAwayWait(error: error, retryAt: now.saturatingAdding(min(Self.longestNodeAwayWait, max(Self.leastNodeAwayWait, asked))))
        nodeAway = wait
        return [.nodeAway(wait)]
    }

    /// The join again once a node-away wait is over; nothing while it is not.
    mutating func retryAfterNodeAway(at now: Int64) -> [SessionEffect] {
        guard let wait = nodeAway, now >= wait.retryAt, stage == .joining || stage == .lobby || stage == .arena else { return [] }
        nodeAway = nil
        let again: [SessionEffect] = switch stage {
        case .lobby: refreshLobby(at: now)
        case .arena: arenaEntered()
        default: [.send(joinMessage)]
        }
        return again + [.log("asking again for \(wait.match ?? "the match")")]
    }

    /// `bad_token`. A join that named its match (`resumeMatch`) is redirected by every node but
    /// the match's own, so this is that node's word (or no node holds the match now): the seat is
    /// gone and the token forgotten. A join that named none (a token naming no match) may have met
    /// a node that does not hold it: the token is kept for a later run. Either way a fresh seat is
    /// taken, unless the seat was reserved for this player: a fresh one would be public.
    mutating func tokenRefused(_ error: WireError) -> [SessionEffect] {
        let final = resumeMatch != nil
        token = nil
        let forget: [SessionEffect] = final ? [.saveToken(nil)] : []
        if options.reservedSeat { return forget + [.refused(error)] }
        return forget + [.send(joinMessage), .log("seat token refused; joining afresh")]
    }

    /// The connection ended or could not be made, for `reason`; the session is offline. A
    /// connection to a node a redirect named that ended before its welcome (refused, timed out,
    /// closed) is a node gone while its lease still runs: the session forgets it and waits, with a
    /// countdown (`.unreachable`), before the driver connects again to the server it was first
    /// given, which redirects afresh, or answers `node_away` once the lease lapsed. Nothing for any
    /// other end: the driver goes on as it does after a loss. A program's patience
    /// (`awayNodePatience`) bounds the tries; a person's lasts until they quit.
    package mutating func lost(_ reason: String, at now: Int64) -> [SessionEffect] {
        let greeted = greetedHere
        stage = .offline
        greetedHere = false
        guard !greeted, let place = redirectedPlace else { return [] }
        redirectedPlace = nil
        redirectsFollowed = 0
        ticket = nil  // good only on the node that is gone; the door mints another
        nodeAway = nil
        if case .tries(let most) = awayNodePatience, unreachableRetries >= min(most, Self.maxUnreachableRetries) {
            return [.gaveUp(.unreachable(address: place.description, reason: reason, tries: unreachableRetries))]
        }
        unreachableRetries += 1
        let delay = min(Self.longestNodeAwayWait, Self.leastNodeAwayWait << Int64(min(unreachableRetries - 1, 5)))
        let wait = UnreachableWait(address: place.description, reason: reason, retryAt: now.saturatingAdding(delay))
        return [.log("\(place.description) did not answer (\(reason)); connecting again in \(delay) ms"), .unreachable(wait)]
    }

    /// A join answered: the redirects and waits that led to it are over.
    mutating func arrived() {
        unreachableRetries = 0
        redirectsFollowed = 0
        ticket = nil
        redirectedMatch = nil
        nodeAway = nil
        nodeAwayRetries = 0
    }
}
