import Glibc
import SetNet
import SetRules
import SetWire

/// The admission part of the server, owned by its loop: who may connect, through either of its
/// entrances (the TCP listener, and the ssh door's Unix socket when there is one), by one accept
/// loop under the same limits: the connection limit, each address's share and connect rate, and
/// the descriptor reserve that lets a process out of descriptors still tell newcomers it is full
/// before accepting pauses. Kept apart so both entrances are admitted by the same rules.
final class Admission {
    /// The two ways in.
    enum Entrance {
        case tcp
        /// The ssh door's socket (`Admission+Door`).
        case door
    }

    /// How long accepting pauses after the process ran out of file descriptors.
    static let acceptPauseMs: Int64 = 100
    /// How many waiting connections one pause may turn away with `server_full`.
    static let refusalsPerPause = 256
    static let acceptsPerReadiness = 64

    let loop: EventLoop
    let clock: TimeSource
    let config: ServerConfig
    let log: ThrottledLog
    let connections: ConnectionTable
    let listener: Listener
    /// The ssh door's Unix socket, when `config.door.socket` names one.
    let doorListener: Listener?
    /// The uids allowed on the door socket.
    let doorUIDs: Set<UInt32>
    /// Accepting pauses briefly when the process runs out of descriptors, instead of spinning.
    private(set) var pausedUntil: Instant?
    /// Connections from named proxies waiting for their PROXY v2 header (`Admission+Proxy`).
    var pendingProxies: [Int32: PendingProxyHeader] = [:]

    init(listener: Listener, doorListener: Listener?, config: ServerConfig, loop: EventLoop, clock: TimeSource, log: ThrottledLog,
         connections: ConnectionTable) {
        self.listener = listener
        self.doorListener = doorListener
        doorUIDs = config.door.uids.isEmpty ? [getuid()] : config.door.uids
        self.config = config
        self.loop = loop
        self.clock = clock
        self.log = log
        self.connections = connections
    }

    private func listener(_ entrance: Entrance) -> Listener? {
        switch entrance {
        case .tcp: listener
        case .door: doorListener
        }
    }

    /// Watches both entrances; neither is watched if one cannot be.
    func startAccepting() throws(SystemCallError) {
        try loop.register(listener.fd) { [unowned self] _ in self.acceptAll(from: .tcp) }
        if let doorListener {
            do { try loop.register(doorListener.fd) { [unowned self] _ in self.acceptAll(from: .door) } } catch {
                loop.unregister(listener.fd)
                throw error
            }
        }
    }

    /// Accepts again once a pause for descriptors is over.
    func resumeIfDue(at now: Instant) {
        guard let resume = pausedUntil, now >= resume else { return }
        pausedUntil = nil
        do { try startAccepting() } catch {
            log.quietly("accept-resume", "cannot watch the listener again: \(error); retrying")
            pausedUntil = clock.now().adding(Self.acceptPauseMs)
        }
    }

    /// Stops watching and closes both entrances, on shutdown.
    func close() {
        closeProxyWaits()
        if pausedUntil == nil { stopWatching() }
        listener.close()
        doorListener?.close()
    }

    private func stopWatching() {
        loop.unregister(listener.fd)
        if let doorListener { loop.unregister(doorListener.fd) }
    }

    /// Accepts what waits at an entrance, up to `acceptsPerReadiness`: the listener stays
    /// readable, so the rest come next turn, after the other clients' input. A flood of
    /// connections cannot hold the loop for long.
    func acceptAll(from entrance: Entrance) {
        guard let listener = listener(entrance) else { return }
        for _ in 0..<Self.acceptsPerReadiness {
            let accepted: LineSocket?
            do { accepted = try listener.accept() } catch {
                if error.isOutOfDescriptors { return outOfDescriptors(error) }
                switch entrance {
                case .tcp: log.quietly("accept", "accept failed: \(error)")
                case .door: log.quietly("door-accept", "door accept failed: \(error)")
                }
                return
            }
            guard let socket = accepted else { return }
            switch entrance {
            case .tcp: admitClient(socket)
            case .door: admitDoor(socket)
            }
        }
    }

    /// A TCP client: one from a named proxy first says whose connection it is (`Admission+Proxy`).
    private func admitClient(_ socket: LineSocket) {
        let peer = DescriptorLimit.peerAddress(socket.fd)
        guard config.perAddress.proxies.contains(peer) else { return admitClient(socket, address: peer) }
        // Waiting headers count against the connection limit, so a proxy cannot hold more.
        guard connections.count + pendingProxies.count < config.limits.maxConnections else {
            socket.close()
            return log.quietly("full", "refused a connection from proxy \(peer): \(connections.count) connections is the limit")
        }
        awaitProxyHeader(socket, from: peer)
    }

    /// A TCP client counted under `address`, held to the connection limit and its address's share and rate.
    func admitClient(_ socket: LineSocket, address: String) {
        if connections.count >= config.limits.maxConnections {
            refuse(socket, WireError(.serverFull, "The server is full; try again later.", fatal: true))
            return log.quietly("full", "refused a connection: \(connections.count) connections is the limit")
        }
        if let refusal = addressRefusal(for: address, what: "a connection from") { return refuse(socket, refusal) }
        admit(socket, address: address)
    }

    /// Why `address` may not open one more connection now (logged as such), or nil when it may:
    /// it connects too often, or already holds its share. `what` names the refused in the log.
    func addressRefusal(for address: String, what: String) -> WireError? {
        guard connections.addresses.mayConnect(from: address, perSecond: config.addressLimits.connectsPerSecond, at: clock.now()) else {
            log.quietly("connect-rate", "refused \(what) \(address): over \(config.addressLimits.connectsPerSecond) a second")
            return WireError(.addressLimit, "Your address connects too often; wait a second.", fatal: true)
        }
        let fromAddress = connections.addresses.held(by: address)
        guard fromAddress < config.addressLimits.connections else {
            log.quietly("address", "refused \(what) \(address): it holds \(fromAddress), its share")
            return WireError(.addressLimit, "Your address has \(fromAddress) connections open, the most one address may hold.", fatal: true)
        }
        return nil
    }

    /// Registers an accepted socket as a connection counted under `address`, and welcomes it.
    @discardableResult
    func admit(_ socket: LineSocket, address: String) -> Connection? {
        guard let connection = connections.open(socket, address: address) else { return nil }
        connections.send(welcome, to: connection)
        return connection
    }

    private var welcome: ServerMessage {
        .welcome(server: config.serverName, versions: ProtocolVersion.supported, time: clock.now().milliseconds, limits: config.limits)
    }

    /// Refuses a socket that was never registered: `welcome`, then the fatal error, then a close
    /// that lets the lines arrive (see `ConnectionTable.linger`). Lingering holds a descriptor
    /// for up to 2 s, so past `maxLingering` of them (a flood) the lines are written once and the
    /// socket closed.
    func refuse(_ socket: LineSocket, _ error: WireError, mayLinger: Bool = true) {
        socket.send(ServerMessageCoding.line(welcome))
        socket.send(ServerMessageCoding.line(.error(error, id: nil)))
        guard mayLinger, connections.mayLinger else {
            socket.flush()
            socket.close()
            return
        }
        connections.linger(socket)
    }

    /// Out of descriptors: a listener stays readable, so accepting again at once would spin.
    /// Each entrance's spare descriptor lets newcomers waiting there be told the server is full,
    /// one at a time, so none waits in silence; then accepting pauses at both.
    private func outOfDescriptors(_ error: SystemCallError) {
        var refused = 0
        for entrance in [Entrance.tcp, .door] {
            guard let listener = listener(entrance) else { continue }
            listener.usingReserve {
                while refused < Self.refusalsPerPause, let socket = try? listener.accept() {
                    refuse(socket, WireError(.serverFull, "The server is out of resources; try again later.", fatal: true), mayLinger: false)
                    refused += 1
                }
            }
        }
        stopWatching()
        pausedUntil = clock.now().adding(Self.acceptPauseMs)
        log.quietly("descriptors", "out of file descriptors (\(error)) with \(connections.count) connections: "
                    + "refused \(refused) waiting, not accepting for \(Self.acceptPauseMs) ms")
    }
}
