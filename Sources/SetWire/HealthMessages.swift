// `health`: whether a server can take players now, for an orchestrator's readiness probe
// (`setgame serve --check --address`) and a load balancer's check (Protocol.md, "Health").

/// Whether the accounts store answered the server's probe.
package enum StoreHealth: String, CaseIterable, Sendable {
    case ok
    /// The database could not be reached or did not answer; nothing that needs it can be done.
    case unavailable
}

/// Whether a node (`serve --node`) holds its lease in the store, so its matches may run here.
package enum LeaseHealth: String, CaseIterable, Sendable {
    case held
    /// The lease ran out (the node could not renew it): its matches wait until it is renewed.
    case lapsed
    /// Held, but an operator drains the node (`setgame nodes drain`): its matches play on and it
    /// takes no new ones, so a load balancer should send it nobody new.
    case draining
}

/// The answer to `health`.
package struct HealthReport: Hashable, Sendable {
    /// Whether the server takes players now: the one field a probe needs to read.
    package var ready: Bool
    package var store: StoreHealth
    /// The node's name and lease; nil for a server that is not one of several nodes.
    package var node: String?
    package var lease: LeaseHealth?

    /// A report whose readiness follows from its parts: listening (it answered), its store
    /// reachable, and, for a node, its lease held and no drain asked.
    package init(store: StoreHealth, node: String? = nil, lease: LeaseHealth? = nil) {
        self.init(ready: store == .ok && lease != .lapsed && lease != .draining, store: store, node: node, lease: lease)
    }

    /// A report as read from the wire, `ready` as the server said it.
    package init(ready: Bool, store: StoreHealth, node: String?, lease: LeaseHealth?) {
        self.ready = ready
        self.store = store
        self.node = node
        self.lease = lease
    }
}

extension ServerMessageCoding {
    static func encode(_ report: HealthReport, id: JSONValue?) -> JSONValue {
        var members: [String: JSONValue] = ["type": .string(ServerMessageType.health.rawValue), "ready": .bool(report.ready),
                                            "store": .string(report.store.rawValue)]
        if let node = report.node { members["node"] = .string(node) }
        if let lease = report.lease { members["lease"] = .string(lease.rawValue) }
        return with(id, members)
    }

    static func health(_ f: FieldReader, id: JSONValue?) throws(WireError) -> ServerMessage {
        guard case .bool(let ready)? = f.value("ready") else { throw f.missing("ready", "true or false") }
        return .health(HealthReport(ready: ready, store: try f.required("store", "ok or unavailable") { k throws(WireError) in try f.choice(k, StoreHealth.self) },
                                    node: try f.string("node"), lease: try f.choice("lease", LeaseHealth.self)), id: id)
    }
}
