import SetNet
import SetRules
import SetWire

// The accept path: who may connect, and what happens when descriptors run out.
extension Server {
    /// How long accepting pauses after the process ran out of file descriptors.
    static let acceptPauseMs: Int64 = 100
    /// How many waiting connections one pause may turn away with `server_full`.
    static let refusalsPerPause = 256
    static let acceptsPerReadiness = 64
    static let maxLingering = 256

    /// Raises the descriptor limit as far as allowed and fits the connection and match limits to
    /// what it really allows, saying so in the log when they had to shrink.
    static func fitToDescriptors(_ config: ServerConfig, log: ServerLog) -> ServerConfig {
        guard let limit = DescriptorLimit.raise() else { return config }
        let budget = DescriptorBudget.fit(maxConnections: config.limits.maxConnections, maxMatches: config.maxMatches,
                                          journals: config.dataDirectory != nil, descriptors: limit.soft)
        guard budget.maxConnections != config.limits.maxConnections || budget.maxMatches != config.maxMatches else { return config }
        var fitted = config
        fitted.limits.maxConnections = budget.maxConnections
        fitted.maxMatches = budget.maxMatches
        log("only \(limit.soft) file descriptors may be open (hard limit \(limit.hard.map(String.init) ?? "unlimited")): "
            + "serving at most \(budget.maxConnections) connections (asked \(config.limits.maxConnections)) and "
            + "\(budget.maxMatches) matches (asked \(config.maxMatches)); raise LimitNOFILE / ulimit -n for more")
        return fitted
    }

    /// The configuration a server would run with here: its limits fitted to the descriptors.
    package static func fitted(_ config: ServerConfig, log: ServerLog = .silent) -> ServerConfig {
        fitToDescriptors(config, log: log)
    }

    /// Why `path` cannot hold match journals, or nil if it can (it is created if missing).
    package static func dataDirectoryProblem(_ path: String) -> String? {
        let directory = JournalDirectory(path: path, log: .silent)
        do { try directory.prepareChecked() } catch { return error.reason }
        guard directory.isWritable else { return "not writable" }
        return nil
    }

    func startAccepting() throws(SocketError) {
        try loop.register(listener.fd) { [unowned self] _ in self.acceptAll() }
        if let doorListener {
            do { try loop.register(doorListener.fd) { [unowned self] _ in self.acceptDoors() } } catch {
                loop.unregister(listener.fd)
                throw error
            }
        }
    }

    func resumeAccepting() {
        acceptPausedUntil = nil
        do { try startAccepting() } catch {
            logQuietly("accept-resume", "cannot watch the listener again: \(error); retrying")
            acceptPausedUntil = clock.now().adding(Self.acceptPauseMs)
        }
    }

    /// Logs `message` unless the same condition was logged less than a second ago.
    func logQuietly(_ condition: String, _ message: String) {
        if let line = logThrottle.admit(condition, message, at: clock.now()) { log(line) }
    }

    /// Spends one of `address`'s new-connection allowance, if it has one left.
    func mayConnect(from address: String) -> Bool {
        let now = clock.now(), rate = config.addressLimits.connectsPerSecond
        var entry = connectAllowance[address]
            ?? (RateLimiter(perSecond: rate, burst: rate.multipliedReportingOverflow(by: 2).partialValue, at: now), now)
        let allowed = entry.bucket.allow(at: now)
        entry.last = now
        connectAllowance[address] = entry
        return allowed
    }

    /// Drops the allowances of addresses quiet long enough to have refilled them.
    func forgetQuietAddresses(at now: Instant) {
        guard connectAllowance.count > 1_024 else { return }
        connectAllowance = connectAllowance.filter { now.milliseconds(since: $0.value.last) < 10_000 }
    }

    func forget(address: String) {
        guard let count = connectionsByAddress[address] else { return }
        connectionsByAddress[address] = count > 1 ? count - 1 : nil
    }

    /// Accepts what waits, up to `acceptsPerReadiness`: the listener stays readable, so the rest
    /// come next turn, after the other clients' input. A flood of connections cannot hold the
    /// loop for long.
    func acceptAll() {
        for _ in 0..<Self.acceptsPerReadiness {
            let accepted: LineSocket?
            do { accepted = try listener.accept() } catch {
                if error.isOutOfDescriptors { return outOfDescriptors(error) }
                logQuietly("accept", "accept failed: \(error)")
                return
            }
            guard let socket = accepted else { return }
            let address = DescriptorLimit.peerAddress(socket.fd)
            if connections.count >= config.limits.maxConnections {
                refuse(socket, WireError(.serverFull, "The server is full; try again later.", fatal: true))
                logQuietly("full", "refused a connection: \(connections.count) connections is the limit")
                continue
            }
            if let refusal = addressRefusal(for: address, what: "a connection from") {
                refuse(socket, refusal)
                continue
            }
            admit(socket, address: address)
        }
    }

    /// Why `address` may not open one more connection now (logged as such), or nil when it may:
    /// it connects too often, or already holds its share. `what` names the refused in the log.
    func addressRefusal(for address: String, what: String) -> WireError? {
        guard mayConnect(from: address) else {
            logQuietly("connect-rate", "refused \(what) \(address): over \(config.addressLimits.connectsPerSecond) a second")
            return WireError(.addressLimit, "Your address connects too often; wait a second.", fatal: true)
        }
        let fromAddress = connectionsByAddress[address] ?? 0
        guard fromAddress < config.addressLimits.connections else {
            logQuietly("address", "refused \(what) \(address): it holds \(fromAddress), its share")
            return WireError(.addressLimit, "Your address has \(fromAddress) connections open, the most one address may hold.", fatal: true)
        }
        return nil
    }

    /// Registers an accepted socket as a connection counted under `address`, and welcomes it.
    @discardableResult
    func admit(_ socket: LineSocket, address: String) -> Connection? {
        lastConnectionID += 1
        let connection = Connection(id: lastConnectionID, socket: socket, limits: config.limits, at: clock.now())
        connection.address = address
        do {
            try socket.watch(on: loop) { [unowned self] readiness in self.ready(connection, readiness) }
        } catch {
            socket.close()
            return nil
        }
        connections[connection.id] = connection
        connectionsByAddress[address, default: 0] += 1
        send(.welcome(server: config.serverName, versions: ProtocolVersion.supported, time: clock.now().milliseconds,
                      limits: config.limits), to: connection)
        return connection
    }

    /// Refuses a socket that was never registered: `welcome`, then the fatal error, then a close
    /// that lets the lines arrive (see `linger`). Lingering holds a descriptor for up to 2 s, so
    /// past `maxLingering` of them (a flood) the lines are written once and the socket closed.
    func refuse(_ socket: LineSocket, _ error: WireError, mayLinger: Bool = true) {
        socket.send(ServerMessageCoding.line(.welcome(server: config.serverName, versions: ProtocolVersion.supported,
                                                      time: clock.now().milliseconds, limits: config.limits)))
        socket.send(ServerMessageCoding.line(.error(error, id: nil)))
        guard mayLinger, lingering.count < Self.maxLingering else {
            socket.flush()
            socket.close()
            return
        }
        linger(socket)
    }

    /// Out of descriptors: the listener stays readable, so accepting again at once would spin.
    /// The spare descriptor lets one newcomer be told the server is full; then accepting pauses.
    func outOfDescriptors(_ error: SocketError) {
        var refused = 0
        listener.usingReserve {
            // The freed slot answers whoever waits in the backlog, one at a time, so none waits in silence.
            while refused < Self.refusalsPerPause, let socket = try? listener.accept() {
                refuse(socket, WireError(.serverFull, "The server is out of resources; try again later.", fatal: true), mayLinger: false)
                refused += 1
            }
        }
        loop.unregister(listener.fd)
        if let doorListener { loop.unregister(doorListener.fd) }
        acceptPausedUntil = clock.now().adding(Self.acceptPauseMs)
        logQuietly("descriptors", "out of file descriptors (\(error)) with \(connections.count) connections: "
                   + "refused \(refused) waiting, not accepting for \(Self.acceptPauseMs) ms")
    }
}
