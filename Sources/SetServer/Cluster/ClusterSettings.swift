import Dispatch
import SetWire
import Synchronization

/// This server's place among several that share one PostgreSQL store (`serve --node NAME
/// --advertise HOST:PORT`, Protocol.md "Several servers (nodes)"). Without a node name the server
/// is the only one, as before, and nothing here applies.
package struct ClusterSettings: Sendable, Equatable {
    /// This node's name in the store's `nodes` table; nil: no nodes.
    package var node: String?
    /// Where clients reach this node (`HOST:PORT`), as other nodes redirect them.
    package var advertise: String?
    /// How often the node renews its lease (its matches live by it).
    package var renewEveryMs: Int64 = 2_000
    /// How long a renewal keeps the node (and its matches) alive.
    package var leaseMs: Int64 = 10_000
    /// How long a node starting under a name whose lease still runs watches for its holder's
    /// renewal before taking the name (NodeDirectory+Name): one lease, so a holder alive renews
    /// several times meanwhile, and one that does not has stopped serving by then.
    package var nameWatchMs: Int64 = 10_000
    /// The lease clock's milliseconds at the server clock's zero; nil: the database's clock, read
    /// at start (`DatabaseClock`), never this machine's. Tests give every node the same base and
    /// move each node's clock on its own.
    package var wallBaseMs: Int64?
    /// At most this many calls wait in the node's player lane (placements, pairings, listings,
    /// tickets); more are answered `unavailable` at once rather than queued without end.
    package var playerLaneCapacity = 4_096
    /// How long a stopping node waits for each lane's last call: a store that does not answer
    /// (a stopped PostgreSQL) does not hold the exit past Kubernetes' 30 s grace.
    package var stopWaitMs: Int64 = 5_000
    /// Tests inject one to make the node's store unreachable, as a network split would.
    package var faults: NodeFaults?

    package init() {}

    /// The node this server is, when it is one, listening on `boundPort`: an address advertised
    /// with port 0 (a server started with `--port 0`) is given the port bound.
    package func identity(boundPort: UInt16) -> NodeIdentity? {
        guard let node, let advertise else { return nil }
        guard advertise.hasSuffix(":0") else { return NodeIdentity(name: node, address: advertise) }
        return NodeIdentity(name: node, address: "\(advertise.dropLast(2)):\(boundPort)")
    }
}

/// A node's name and the address clients reach it at.
package struct NodeIdentity: Sendable, Equatable, Hashable {
    package var name: String
    package var address: String

    package init(name: String, address: String) {
        self.name = name
        self.address = address
    }
}

/// Switches tests flip: one cuts a node off from its store (every call of its node directory
/// fails as an unreachable database would, until it is flipped back), one holds its renewals back.
package final class NodeFaults: Sendable, Equatable {
    private let cut = Atomic<Bool>(false)
    private let held = Atomic<Bool>(false)
    private let playerGate = Mutex<DispatchSemaphore?>(nil)

    package init() {}

    /// The same switch: a copy of a config shares its switch with the original.
    package static func == (lhs: NodeFaults, rhs: NodeFaults) -> Bool { lhs === rhs }

    /// Whether the store is unreachable from this node now.
    package var unreachable: Bool {
        get { cut.load(ordering: .acquiring) }
        set { cut.store(newValue, ordering: .releasing) }
    }

    /// Whether the node's lease renewals are held back now: none starts until this is cleared,
    /// as when a renewal is late behind a slow store. Its lease, matches and listings wait.
    package var renewalsHeld: Bool {
        get { held.load(ordering: .acquiring) }
        set { held.store(newValue, ordering: .releasing) }
    }

    /// Holds every call of the node's player lane until `releasePlayerLane()`, as a store slow
    /// to answer player work would: the calls queue behind the one held.
    package func holdPlayerLane() { playerGate.withLock { $0 = DispatchSemaphore(value: 0) } }

    /// Lets the player lane's calls run again.
    package func releasePlayerLane() { playerGate.withLock { $0.take() }?.signal() }

    /// Waits while the player lane is held (on the lane's thread).
    func passPlayerLane() {
        guard let gate = playerGate.withLock({ $0 }) else { return }
        gate.wait()
        gate.signal()  // the next held call passes too
    }
}

extension ClusterSettings {
    /// What is wrong with these settings for a server keeping its accounts at `store`; nil when
    /// nothing is (no node at all is fine: the server is the only one).
    package func problem(store: StoreLocation?) -> String? {
        guard let node else { return advertise == nil ? nil : "--advertise needs --node" }
        guard Self.isAcceptable(nodeName: node) else { return "a node's name is 1–16 of a–z, 0–9 and -, not '\(node)'" }
        guard case .postgres = store else { return "--node needs a PostgreSQL --store (postgresql://…) that the nodes share" }
        guard let advertise, !advertise.isEmpty else { return "--node needs --advertise HOST:PORT, where clients reach this node" }
        guard Self.isAcceptable(advertise: advertise) else {
            return "--advertise takes HOST:PORT, a name or address clients can reach (letters, digits, '.', '-'; IPv6 in []), not '\(advertise)'"
        }
        guard renewEveryMs > 0, leaseMs > renewEveryMs else { return "a node's lease must outlast its renewal period" }
        return nil
    }

    /// An address every client follows a redirect to (`ServerPlace(address:)` takes it, port 0
    /// standing for the port bound), whose host is a DNS name or an IP address: anything else
    /// would send every player redirected here to an address they refuse or cannot look up.
    package static func isAcceptable(advertise: String) -> Bool {
        guard let colon = advertise.lastIndex(of: ":"), UInt16(advertise[advertise.index(after: colon)...]) != nil,
              case .tcp(let host, _)? = ServerPlace(address: advertise[..<colon] + ":1") else { return false }
        let bracketed = advertise.hasPrefix("[")
        return host.utf8.allSatisfy { byte in
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                 UInt8(ascii: "."): true
            case UInt8(ascii: "-"): !bracketed
            case UInt8(ascii: ":"): bracketed
            default: false
            }
        }
    }

    /// 1–16 of `a–z 0–9 -`: it goes into the names of the matches the node makes.
    package static func isAcceptable(nodeName: String) -> Bool {
        !nodeName.isEmpty && nodeName.utf8.count <= 16
            && nodeName.utf8.allSatisfy { ($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x61 && $0 <= 0x7A) || $0 == 0x2D }
    }
}
