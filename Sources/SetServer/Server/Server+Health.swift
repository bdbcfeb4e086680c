import SetRules
import SetWire

// `health`: whether this server can take players now, for an orchestrator's readiness probe and a
// load balancer's check. Ready means listening (it answered at all), its accounts store reachable
// (a read made through the store's own worker, as a player's would be), and, for a node, its
// lease held. The answer never says why the store failed: the port is public, the log is not.
extension Server {
    func answerHealth(id: JSONValue?, from connection: Connection, at now: Instant) {
        switch health.ask(HealthProbe.Asker(connection: connection.id, id: id), at: now) {
        case .answer(let store): send(.health(report(store), id: id), to: connection)
        case .wait: break
        case .probe:
            accounts.ask({ store throws(StoreError) in try store.probe() }) { [unowned self] result in
                let store: StoreHealth
                switch result {
                case .success: store = .ok
                case .failure(let error):
                    store = .unavailable
                    logQuietly("health: store", "health: not ready: \(error)")
                }
                for asker in health.answered(store, at: clock.now()) {
                    guard let waiting = connections[asker.connection] else { continue }
                    send(.health(report(store), id: asker.id), to: waiting)
                }
            }
        }
    }

    private func report(_ store: StoreHealth) -> HealthReport {
        HealthReport(store: store, node: nodeHealth?.name, lease: nodeHealth?.lease)
    }

    /// The node's name and whether it holds its lease; nil for a server that is not one of
    /// several nodes (`serve --node`), whose readiness does not depend on a lease.
    var nodeHealth: (name: String, lease: LeaseHealth)? {
        guard let nodes else { return nil }
        return switch nodes.ownLease {
        case .held(let lease): (nodes.me.name, lease.draining ? .draining : .held)
        case .lapsed: (nodes.me.name, .lapsed)
        }
    }
}

extension AccountStore {
    /// Reaches the database and changes nothing: a read of an account id that is never given
    /// (ids start at 0), through the same connection, and its reconnecting, a player's read uses.
    func probe() throws(StoreError) { _ = try account(id: -1) }
}

/// The store probe behind `health`: one in flight at a time, and its answer reused for
/// `freshMs`, so a flood of health requests from anywhere costs the store at most one read a
/// second and never queues behind itself on the store's one worker.
struct HealthProbe {
    /// Who asked, to be answered once the probe returns.
    struct Asker {
        let connection: ConnectionID
        let id: JSONValue?
    }

    /// What the server does for one request.
    enum Step: Equatable {
        /// Answer at once with the store's health, probed less than `freshMs` ago.
        case answer(StoreHealth)
        /// Ask the store; answer everyone waiting with `answered`.
        case probe
        /// A probe is on its way; this request is answered with it.
        case wait
    }

    /// How long a probe's answer stands for the next requests.
    static let freshMs: Int64 = 1_000

    private enum State {
        case idle
        case probing(waiting: [Asker])
        case answered(StoreHealth, at: Instant)
    }

    private var state = State.idle

    mutating func ask(_ asker: Asker, at now: Instant) -> Step {
        switch state {
        case .probing(let waiting):
            state = .probing(waiting: waiting + [asker])
            return .wait
        case .answered(let store, let at) where now.milliseconds(since: at) < Self.freshMs:
            return .answer(store)
        case .idle, .answered:
            state = .probing(waiting: [asker])
            return .probe
        }
    }

    /// The probe's answer: returns everyone who waited for it.
    mutating func answered(_ store: StoreHealth, at now: Instant) -> [Asker] {
        guard case .probing(let waiting) = state else { return [] }
        state = .answered(store, at: now)
        return waiting
    }
}
