import Foundation
import SetDatabase
import SetNet
import SetRules
import SetWire

/// The loop's side of the node directory (`serve --node`): its calls go to one of two lanes of the
/// store gateway, each a thread with its own connection, and come back through the loop's inbox,
/// as the accounts edge's do. The *lease* lane renews this node's lease (every `renewEveryMs`, with
/// the matches' changed listings) and nothing else, so a renewal never waits behind player work;
/// the *player* lane (placements, pairings, listings, tickets) is bounded and sheds calls with
/// `unavailable` when full. The edge keeps the rows it placed for each client address that no
/// player made yet (`PlacementShares`), and the other nodes' listings for `list`.
final class NodeEdge {
    let settings: ClusterSettings
    let me: NodeIdentity
    /// Renewals only (and, at the stop, this node's own rows given back).
    private let leaseLane: SerialWorker<NodeDirectory>
    /// Everything a player's request asks of the directory.
    private let playerLane: SerialWorker<NodeDirectory>
    private let clock: TimeSource
    private let log: ServerLog
    /// The database's clock at the server clock's zero (`DatabaseClock`): leases are times on it
    /// that every node shares, whatever its own machine's wall clock says.
    private let wallBase: Int64
    private var inbox: LoopInbox<Int>?
    private var waiting: [Int: () -> Void] = [:]
    private var lastTicket = 0
    /// This node's lease as last written to the store.
    private(set) var lease: NodeLease
    /// Where the lease's renewals stand.
    private var renewal: RenewalState
    /// The listings the store holds for this node, as last written.
    private var written: [String: MatchListing] = [:]
    /// This node's rows in the store's `waiting` table (`Server+Pairing`).
    var waitingRows = WaitingRows()
    /// Other nodes' matches for `list`, and when they were read (server clock).
    private var remote: (listings: [MatchListing], readAt: Instant?) = ([], nil)
    private var listWaiters: [([MatchListing]) -> Void] = []
    /// The rows this node placed for each client address that no player has made a match yet.
    private(set) var placements = PlacementShares()

    /// Opens the directory's two lanes, each on its own connection to the store, and registers
    /// this node (its row made, or taken back after a restart, and its matches with it): before
    /// the loop runs.
    init(settings: ClusterSettings, me: NodeIdentity, url: String, loop: EventLoop, clock: TimeSource, log: ServerLog) throws(DatabaseError) {
        self.settings = settings
        self.me = me
        self.clock = clock
        self.log = log
        let database = try PostgresDatabase(url: url)
        try Migrations.run(SQLAccountSchema.migrations, on: database, wallSeconds: Int64(time(nil)))
        let sent = clock.now().milliseconds
        let wallBase = if let given = settings.wallBaseMs { given } else {
            DatabaseClock.base(databaseMs: try DatabaseClock.read(database), sentMs: sent, answeredMs: clock.now().milliseconds)
        }
        let worker = SerialWorker(NodeDirectory(database: database, me: me, faults: settings.faults), threadName: "setgame.nodes.lease")
        leaseLane = worker
        playerLane = SerialWorker(NodeDirectory(database: try PostgresDatabase(url: url), me: me, faults: settings.faults),
                                  threadName: "setgame.nodes.player", capacity: settings.playerLaneCapacity)
        let now = clock.now()
        self.wallBase = wallBase
        let wall = wallBase + now.milliseconds
        var watchedMs: Int64 = 0
        lease = try worker.withSubject { directory throws(DatabaseError) in
            let found = try directory.awaitName(at: wall, watchMs: settings.nameWatchMs) { stepMs in
                if watchedMs == 0 { log("node \(me.name): the name's lease in the store still runs; watching \(settings.nameWatchMs) ms for another server renewing it") }
                watchedMs += stepMs
                Thread.sleep(forTimeInterval: Double(stepMs) / 1_000)
            }
            // The lease runs from when it is taken, after the watch (as long as a lease by
            // default): from before it, a restarted node's lease had lapsed as it registered.
            return try directory.register(at: max(wall + watchedMs, wallBase + clock.now().milliseconds), leaseMs: settings.leaseMs, claiming: found)
        }
        // Rows a previous run left (killed before it could take them out) wait for nobody now.
        try playerLane.withSubject { directory throws(DatabaseError) in try directory.forgetWaiting() }
        renewal = RenewalState(due: Instant(milliseconds: max(now.milliseconds + watchedMs, clock.now().milliseconds)).adding(settings.renewEveryMs))
        inbox = loop.inbox { [unowned self] (tickets: [Int]) in
            for ticket in tickets { waiting.removeValue(forKey: ticket)?() }
        }
    }

    func start() {
        leaseLane.start()
        playerLane.start()
    }

    /// Takes this node's waiting duels out of the store (nobody is sent to a stopping node to be
    /// paired) and gives its lease back, on the lease lane (the player lane may be full), then
    /// ends both lanes, waiting at most `ClusterSettings.stopWaitMs` for each: a store that does
    /// not answer does not hold the server's exit.
    func stop() {
        let wall = wallNow
        leaseLane.submit { directory in
            try? directory.forgetWaiting()
            try? directory.release(at: wall)
        }
        let bound = Duration.milliseconds(settings.stopWaitMs)
        for (lane, name) in [(playerLane, "player"), (leaseLane, "lease")] where !lane.stop(waitingAtMost: bound) {
            log("node \(me.name): the store did not answer the \(name) lane's last call within \(settings.stopWaitMs) ms; stopping without it")
        }
    }

    /// The database's clock now, in milliseconds since 1970, counted on by the server's clock.
    var wallNow: Int64 { wallBase + clock.now().milliseconds }

    /// Whether this node may serve its matches now.
    var ownLease: OwnLease { OwnLease.state(of: lease, at: wallNow) }

    /// The refusal for a join or an action on this node's own match while its lease has lapsed.
    func lapsedRefusal(_ match: String) -> WireError? {
        guard case .lapsed = ownLease else { return nil }
        return Self.away(match: match, node: me.name, retryAfterMs: max(1_000, settings.renewEveryMs))
    }

    /// `node_away` for `match`, whose node is not alive.
    static func away(match: String, node: String, retryAfterMs: Int64) -> WireError {
        let seconds = (retryAfterMs + 999) / 1000
        return WireError(.nodeAway, "The server holding \(match) (\(node)) is away; try again in \(seconds) s.",
                         details: ["match": .string(match), "node": .string(node), "retryAfterMs": .int(retryAfterMs)])
    }

    /// `node_away` for `match` from this node, which could not ask the store where it lives: the
    /// node away from the service is this one (the match's own may be well), and it says so.
    func cutOff(from match: String) -> WireError {
        let retryAfterMs = max(1_000, settings.renewEveryMs)
        return WireError(.nodeAway, "This server (\(me.name)) cannot reach the store to find where \(match) is played; try again in \((retryAfterMs + 999) / 1000) s.",
                         details: ["match": .string(match), "node": .string(me.name), "retryAfterMs": .int(retryAfterMs)])
    }

    /// Calls the directory off the loop, on the player lane; `then` runs on the loop with the
    /// answer, `unavailable` at once (through the inbox, never inside this call) when the lane
    /// holds `ClusterSettings.playerLaneCapacity` calls already.
    func ask<Answer: Sendable>(_ call: @escaping @Sendable (NodeDirectory) throws(DatabaseError) -> Answer,
                               then answer: @escaping (Result<Answer, DatabaseError>) -> Void) {
        ask(on: .player, call, then: answer)
    }

    /// How many calls wait in the player lane now (not the one running).
    var playerLaneWaiting: Int { playerLane.waiting }

    /// The gateway's lanes to the directory.
    enum Lane { case lease, player }

    private func ask<Answer: Sendable>(on lane: Lane, _ call: @escaping @Sendable (NodeDirectory) throws(DatabaseError) -> Answer,
                                       then answer: @escaping (Result<Answer, DatabaseError>) -> Void) {
        guard let inbox else { return }
        lastTicket += 1
        let ticket = lastTicket, slot = AnswerSlot<Answer, DatabaseError>(missing: DatabaseError(.unavailable, "the node worker left no answer"))
        waiting[ticket] = { answer(slot.take()) }
        let worker = lane == .lease ? leaseLane : playerLane
        let faults = settings.faults
        let queued = worker.submit { directory in
            if lane == .player { faults?.passPlayerLane() }
            slot.put(Result { () throws(DatabaseError) -> Answer in try call(directory) })
            inbox.post(ticket)
        }
        guard !queued else { return }
        slot.put(.failure(DatabaseError(.unavailable, "node \(me.name) has \(worker.waiting) store calls waiting, the most it queues; try again shortly")))
        inbox.post(ticket)
    }

    // MARK: Renewing

    /// When the loop must wake for the next renewal, or to say the lease lapsed.
    var nextDeadline: Instant {
        guard !renewal.lapseSaid else { return renewal.due }
        return min(renewal.due, Instant(milliseconds: lease.until - wallBase))
    }

    /// Renews the lease when due, or at once when the lobby changed (`changes` moved): a new
    /// match's row reaches the store before the next period. A lease that lapsed is logged once
    /// (and again once it is regained), whatever held its renewal.
    func renewIfDue(at now: Instant, changes: Int, listings: () -> [MatchListing]) {
        if case .lapsed = ownLease, !renewal.lapseSaid {
            renewal.lapseSaid = true
            log("node \(me.name)'s lease lapsed (no renewal reached the store in time): its matches wait until it renews")
        }
        guard !renewal.inFlight, now >= renewal.due || changes != renewal.atChange else { return }
        renewal.due = now.adding(settings.renewEveryMs)
        if settings.faults?.renewalsHeld == true { return }  // a test makes this renewal late
        renewal.inFlight = true
        let current = Dictionary(listings().map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        let changed = current.values.filter { written[$0.name] != $0 }
        let gone = written.keys.filter { current[$0] == nil }
        var next = NodeSync(now: wallNow, leaseMs: settings.leaseMs, listings: changed, gone: Array(gone))
        if !renewal.sentHeld { next.held = current.keys.sorted() }
        let sync = next
        ask(on: .lease, { directory throws(DatabaseError) in try directory.renew(sync) }) { [unowned self] result in
            renewal.inFlight = false
            switch result {
            case .success(let renewed):
                if renewed.draining != lease.draining {
                    log(renewed.draining ? "node \(me.name) is drained: it keeps its matches, takes no new ones, and says it is not ready"
                                         : "node \(me.name) is no longer drained: it takes new matches again")
                }
                lease = renewed
                written = current
                renewal.atChange = changes
                if sync.held != nil { renewal.sentHeld = true }
                if renewal.lapseSaid { log("node \(me.name) renewed its lease: serving its matches again") }
                renewal.lapseSaid = false
            case .failure(let error) where error.code == .uniqueViolation:
                // Another server holds this node's name now: it serves the matches, this one none.
                lease = NodeLease(until: 0)
                if !renewal.lapseSaid { log("node \(me.name) stops serving its matches: \(error.message)") }
                renewal.lapseSaid = true
            case .failure(let error):
                if case .lapsed = ownLease, !renewal.lapseSaid {
                    renewal.lapseSaid = true
                    log("node \(me.name) cannot renew its lease (\(error)): it lapsed, and its matches wait until it renews")
                }
            }
        }
        settlePlacements()
    }

    // MARK: Placing

    /// Whether `address` may have another new named match placed in the store now; if not, the
    /// `rate_limited` refusal, saying when a share comes back at the latest.
    func placementRefusal(for address: String, cap: Int) -> WireError? {
        let now = wallNow, held = placements.held(by: address, at: now)
        guard held >= cap else { return nil }
        let retryAfterMs = max(1_000, placements.nextFreedMs(for: address, at: now) ?? settings.renewEveryMs)
        return WireError(.rateLimited, """
            Your address has \(held) new matches placed that no player has started yet, the most one address may have; \
            start one, or try again in \((retryAfterMs + 999) / 1000) s.
            """, details: ["retryAfterMs": .int(retryAfterMs)])
    }

    /// Places the new named match `match` for `address` (its share held while the store is asked);
    /// `then` runs on the loop with where it lives, nil when every node is drained.
    func place(_ match: String, for address: String, then answer: @escaping (Result<MatchHome?, DatabaseError>) -> Void) {
        let wall = wallNow, leaseMs = settings.leaseMs
        placements.asking(match, by: address)
        ask({ directory throws(DatabaseError) in try directory.placeMatch(match, at: wall, leaseMs: leaseMs) }) { [unowned self] result in
            switch result {
            case .success(.placed(_, let until)?): placements.answered(match, by: address, placedUntil: until)
            case .success(.found), .success(nil), .failure: placements.answered(match, by: address, placedUntil: nil)
            }
            answer(result.map { $0?.home })
        }
    }

    /// Asks the store which placements were made into matches since, and frees their shares
    /// (and those past their deadline); asked after a renewal, which writes this node's own.
    private func settlePlacements() {
        let asked = placements.placedMatches
        guard !asked.isEmpty else { return }
        ask({ directory throws(DatabaseError) in try directory.stillPlaced(asked) }) { [unowned self] result in
            // A store that cannot answer frees nothing early; deadlines still do.
            placements.settle(asked: asked, stillPlaced: (try? result.get()) ?? Set(asked), at: wallNow)
        }
    }

    // MARK: Listing

    /// Other nodes' matches, read from the store at most once per `maxAgeMs` of the server's clock
    /// (every caller meanwhile shares one read); `then` runs on the loop.
    func otherListings(maxAgeMs: Int64, at now: Instant, then: @escaping ([MatchListing]) -> Void) {
        if let readAt = remote.readAt, now.milliseconds(since: readAt) < maxAgeMs, now >= readAt { return then(remote.listings) }
        listWaiters.append(then)
        guard listWaiters.count == 1 else { return }
        let wall = wallNow
        ask({ directory throws(DatabaseError) in try directory.otherListings(at: wall) }) { [unowned self] result in
            if case .success(let listings) = result { remote = (listings, now) }
            let waiters = listWaiters
            listWaiters = []
            waiters.forEach { $0(remote.listings) }
        }
    }
}

extension NodeEdge {
    /// The node edge `config` asks for, registered in the store; nil for a server that is no node.
    static func open(_ config: ServerConfig, boundPort: UInt16, loop: EventLoop, clock: TimeSource,
                     log: ServerLog) throws(ServerStartError) -> NodeEdge? {
        guard let me = config.cluster.identity(boundPort: boundPort), case .postgres(let url) = config.store else { return nil }
        do {
            let edge = try NodeEdge(settings: config.cluster, me: me, url: url, loop: loop, clock: clock, log: log)
            log("node \(me.name) registered at \(me.address); its lease is renewed every \(config.cluster.renewEveryMs) ms for \(config.cluster.leaseMs) ms")
            return edge
        } catch where error.code == .unavailable {
            throw .storeUnreachable("node \(me.name) cannot register: \(error)")
        } catch {
            throw .cluster("cannot register node \(me.name) in the store: \(error)")
        }
    }
}

/// Where a node's lease renewals stand, on the loop.
private struct RenewalState {
    /// When the next renewal is due.
    var due: Instant
    /// Whether a renewal is in the store's hands now.
    var inFlight = false
    /// The lobby's change count the last renewal was made at: a change renews at once.
    var atChange = -1
    /// Whether the lapse of the lease was logged (it is said once, and its return once).
    var lapseSaid = false
    /// Whether a renewal since the start told the store every match this node holds.
    var sentHeld = false
}
