import SetNet
import SetRules
import SetWire

/// The connections part of the server, owned by its loop: every open connection by id and how
/// many each address holds, the closing of connections at the end of a batch, and the sockets
/// lingering after a fatal error to deliver it. Its output half (`ConnectionTable+Output`)
/// queues and writes their lines. Kept apart from `Server` so that what a connection is, and
/// when it goes, is decided in one place, whatever part (admission, a request, a sweep) asks.
final class ConnectionTable {
    /// How long a closing socket may stay open to deliver its last line and be drained.
    static let lingerMs: Int64 = 2_000
    static let maxLingering = 256
    /// The kernel send buffer each client's socket gets: a card game's lines need little, and a
    /// client that stops reading holds this much of the machine's TCP memory, not the 4 MiB
    /// Linux would grow it to (`Sockets.setSendBuffer`).
    static let kernelSendBufferBytes = 64 << 10

    let loop: EventLoop
    let clock: TimeSource
    let limits: ServerLimits
    let log: ThrottledLog
    /// Where spectators' shared feeds are found when their round comes.
    let lobby: Lobby
    private var byID: [ConnectionID: Connection] = [:]
    /// The ids in each round-trip slice (`id % ServerTimers.measureSlots`), so a slice's turn
    /// visits its own share, not every connection (a sweep of them all showed in the profile).
    private var bySlot = [Set<ConnectionID>](repeating: [], count: ServerTimers.measureSlots)
    private var lastID = 0
    /// Each client address's share: what it holds open, and its allowance of new connections.
    var addresses = AddressLedger()
    /// Connections with requests waiting behind their join's answer (`Connection.held`).
    var holding: Set<ConnectionID> = []
    /// Connections not read for now, being over their rate limit (`Server+Lines`).
    var pausedReaders: Set<ConnectionID> = []
    /// Connections with output waiting, in the order they are written.
    var dirty: OutputQueues
    private var toClose: [(ConnectionID, String)] = []
    private var closing: Set<ConnectionID> = []
    /// Sockets closed after a fatal error, still read (and dropped) until their deadline.
    private var lingering: [Int32: Lingering] = [:]
    /// What a readable or writable connection is to do (`Server.ready`).
    var ready: (Connection, Readiness) -> Void = { _, _ in }
    /// What a connection's going leaves to do once it is closed: its seat waits (`Server`).
    var left: (Connection) -> Void = { _ in }

    init(loop: EventLoop, clock: TimeSource, limits: ServerLimits, crowdRoundMs: Int64, log: ThrottledLog, lobby: Lobby) {
        self.loop = loop
        self.clock = clock
        self.limits = limits
        self.log = log
        self.lobby = lobby
        dirty = OutputQueues(crowdRoundMs: crowdRoundMs)
    }

    subscript(id: ConnectionID) -> Connection? { byID[id] }

    var count: Int { byID.count }

    var all: Dictionary<ConnectionID, Connection>.Values { byID.values }

    /// The open connections of one round-trip slice.
    func inSlot(_ slot: Int) -> [Connection] {
        guard bySlot.indices.contains(slot) else { return [] }
        return bySlot[slot].compactMap { byID[$0] }
    }

    private static func slot(of id: ConnectionID) -> Int { id % ServerTimers.measureSlots }

    /// Registers an accepted socket as a connection counted under `address`; nil if the loop
    /// would not watch it (the socket is closed).
    func open(_ socket: LineSocket, address: String) -> Connection? {
        lastID += 1
        let connection = Connection(id: lastID, socket: socket, limits: limits, at: clock.now())
        connection.address = address
        do {
            // Not in a match yet: its lines (a question, a join) are served in the loop's priority
            // lane until it takes a seat or watches (`Connection.session`).
            try socket.watch(on: loop, priority: true) { [unowned self] readiness in self.ready(connection, readiness) }
        } catch {
            socket.close()
            return nil
        }
        byID[connection.id] = connection
        bySlot[Self.slot(of: connection.id)].insert(connection.id)
        addresses.opened(address)
        return connection
    }

    /// The connection counts under `address` from now on (the door said where its player is).
    func move(_ connection: Connection, to address: String) {
        addresses.closed(connection.address)
        connection.address = address
        addresses.opened(address)
    }

    // MARK: Closing

    /// Closing waits for the end of the batch, so no delivery loop sees a connection vanish.
    /// `lingering`: after a fatal error, whose line must still reach the client.
    func markClosed(_ connection: Connection, _ reason: String, lingering: Bool = false) {
        guard closing.insert(connection.id).inserted else { return }
        connection.closeWhenFlushed = true
        connection.lingerOnClose = lingering
        toClose.append((connection.id, reason))
    }

    func closePending() {
        // By index, not removeFirst: thousands closing in one batch stay linear.
        var next = 0
        defer { toClose.removeAll(keepingCapacity: true) }
        while next < toClose.count {
            let (id, reason) = toClose[next]
            next += 1
            closing.remove(id)
            guard let connection = byID.removeValue(forKey: id) else { continue }
            bySlot[Self.slot(of: id)].remove(id)
            if connection.lingerOnClose { linger(connection.socket) } else { connection.socket.close() }
            addresses.closed(connection.address)
            // Comings and goings that leave nothing behind are logged at most once a second; a
            // player's, at most once a second per address, so reconnect churn stays quiet too. A
            // connection that never said who it is (a health check, a question, a port scan) goes
            // unsaid: a load balancer's checks were most of a node's log.
            if connection.saidWhoItIs {
                let seated = !connection.isSpectator && connection.room?.host.holdsSeats == true
                let condition = seated ? "left from \(connection.address)" : connection.isSpectator ? "spectator-left" : "left"
                log.quietly(condition, "\(connection.label) left: \(reason)")
            }
            left(connection)
        }
    }

    /// On shutdown: every client is told, and every socket closed now.
    func closeAll(saying goodbye: [UInt8]) {
        for connection in byID.values {
            connection.socket.send(goodbye)
            connection.socket.flush()
            connection.socket.close()
        }
        byID.removeAll()
        for slot in bySlot.indices { bySlot[slot].removeAll() }
        for entry in lingering.values { entry.socket.close("shutting down") }
    }

    // MARK: Lingering
    // Closing after a fatal error so that the error arrives (see `LineSocket.closeAfterDelivering`):
    // the socket does it; the table bounds how long and how many.

    /// Whether another socket may linger, or a flood of them must be closed at once.
    var mayLinger: Bool { lingering.count < Self.maxLingering }

    /// Takes a socket over from its connection (or from a refusal) to deliver what it still queues.
    func linger(_ socket: LineSocket) {
        let fd = socket.fd
        socket.onClose = { [unowned self] _ in self.lingering[fd] = nil }
        guard socket.closeAfterDelivering(on: loop) else { return }
        lingering[fd] = Lingering(socket: socket, deadline: clock.now().adding(Self.lingerMs))
    }

    /// Closes lingering sockets whose time is up; the sweep calls it.
    func closeOverdueLingering(at now: Instant) {
        for entry in lingering.values where entry.deadline <= now { entry.socket.close("overdue") }
    }
}

/// A socket closed after a fatal error, on its way out: its last lines are still being written,
/// for at most `ConnectionTable.lingerMs`.
struct Lingering {
    let socket: LineSocket
    let deadline: Instant
}
