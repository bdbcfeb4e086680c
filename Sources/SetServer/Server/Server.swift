import Glibc
import SetNet
import SetRules
import SetWire

/// The authoritative match server: one epoll loop on one thread owns every socket, match and
/// timer. It is not `Sendable`: it belongs to the thread that runs it (`runOnNewThread` hands it
/// over), and other threads reach it only through its `control`, to stop or wake it.
package final class Server {
    package let config: ServerConfig
    /// Stops or wakes the server from any thread.
    package let control: ServerControl
    package let port: UInt16
    /// The names of the unfinished matches restored from the data directory at start.
    package let restoredMatches: [String]
    let clock: TimeSource
    let log: ServerLog
    let loop: EventLoop
    let lobby: Lobby
    /// Accounts, names, ratings and finished games: the store, called off the loop (`AccountsEdge/`).
    let accounts: AccountsEdge
    let listener: Listener
    /// The ssh door's Unix socket, when `config.doorSocket` names one.
    let doorListener: Listener?
    /// The uids allowed on the door socket.
    let doorUIDs: Set<UInt32>
    var connections: [ConnectionID: Connection] = [:]
    var lastConnectionID = 0
    /// Open connections per client address, to hold each address to its share.
    var connectionsByAddress: [String: Int] = [:]
    /// Accepting pauses briefly when the process runs out of descriptors, instead of spinning.
    var acceptPausedUntil: Instant?
    var logThrottle = LogThrottle()
    /// Each address's allowance of new connections, and when it last connected.
    var connectAllowance: [String: (bucket: RateLimiter, last: Instant)] = [:]
    /// Matches whose spectator count waits to be announced, by when.
    var announcements = DeadlineQueue<String>()
    var announcing: Set<String> = []
    private let finished: FinishedJournals?
    private var nextPrune: Instant
    var deadlines = DeadlineQueue<String>()
    /// The deadline each match is queued for: a match is queued again only when it changes, and a
    /// queued entry that no longer matches is skipped when it comes due.
    var scheduled: [String: Instant] = [:]
    /// Connections with output waiting, in the order they are written.
    var dirty: OutputQueues
    private var toClose: [(ConnectionID, String)] = []
    private var closing: Set<ConnectionID> = []
    private var nextSweep: Instant
    /// When the next slice of connections is due a round-trip ping (lag compensation on).
    private var nextMeasure: Instant
    private var measureSlot = 0
    /// The `flock` on the data folder, held while the server runs.
    private let folderLock: FolderLock?
    /// Sockets closed after a fatal error, still read (and dropped) until their deadline.
    var lingering: [Int32: Lingering] = [:]
    /// What each person has said lately, against the chat limit.
    var chatAllowance: ChatAllowance
    /// New accounts and renames each address, network and account may still write.
    var recordAllowance: RecordAllowance
    /// Who the operator silenced (a file read again when it changes, off the loop).
    var chatSilence: ChatSilence
    let silenceReader: SilenceReader
    /// Chat lines said while the silenced file is being read, judged by its new list.
    var waitingChat: [WaitingChatLine] = []

    /// Binds the listening socket at once, so `port` is known before `run()`. With a data
    /// directory, every unfinished match in it is then restored, paused until its players return,
    /// and the server's clock continues from the latest instant the journals hold.
    package convenience init(config: ServerConfig, clock: TimeSource = MonotonicTime(), log: ServerLog = ServerLog()) throws(ServerStartError) {
        try self.init(config: config, clock: clock, log: log, store: nil)
    }

    /// `store`: the accounts store to use instead of the one `config` names (tests).
    init(config: ServerConfig, clock: TimeSource, log: ServerLog, store given: AccountStore?) throws(ServerStartError) {
        Sockets.ignoreBrokenPipes()
        self.config = Self.fitToDescriptors(config, log: log)
        let config = self.config
        self.log = log
        var journals: JournalDirectory?
        var restored: [MatchRoom] = []
        var state: ServerState?
        var lock: FolderLock?
        if let path = config.dataDirectory {
            var directory = JournalDirectory(path: path, log: log)
            directory.faults = config.journalFaults
            do { try directory.prepareChecked() } catch { throw .dataDirectory(path: path, reason: error.reason) }
            do { lock = try directory.lock() } catch {
                throw error.wouldBlock ? .dataDirectoryInUse(path: path) : .dataDirectory(path: path, reason: error.description)
            }
            journals = directory
        }
        // Bound before any journal is read: restoring appends a restart record to each, and a
        // start that then failed on a port in use would leave one behind for nothing.
        do throws(SocketError) {
            loop = try EventLoop()
            listener = try Listener(host: config.host, port: config.port, maxLineBytes: config.limits.maxLineBytes,
                                    maxQueuedBytes: config.limits.outboundQueueBytes)
        } catch {
            lock?.release()
            throw .network(host: config.host, port: config.port, error)
        }
        do throws(SocketError) {
            doorListener = try config.doorSocket.map { (path) throws(SocketError) in
                try Listener(unixPath: path, maxLineBytes: config.limits.maxLineBytes, maxQueuedBytes: config.limits.outboundQueueBytes)
            }
        } catch {
            lock?.release()
            throw .doorSocket(path: config.doorSocket ?? "", error)
        }
        doorUIDs = config.doorUIDs.isEmpty ? [getuid()] : config.doorUIDs
        control = ServerControl(loop: loop)
        let store: AccountStore
        do throws(SocketError) {
            if let given { store = given } else if let location = config.store {
                do throws(StoreError) { store = try location.openStore(wallSeconds: Int64(time(nil))) } catch {
                    throw SocketError("opening the accounts store", code: 0, reason: error.description)
                }
            } else {
                store = BookAccountStore(try Accounts(directory: journals, faults: config.accountFaults, log: log))
            }
        } catch {
            lock?.release()
            throw .dataDirectory(path: config.store?.description ?? config.dataDirectory ?? "", reason: error.description)
        }
        if let directory = journals {
            state = ServerState(in: directory)
            // Accounts first: a replayed game over is told with its record's ratings, as it was.
            // The loop does not run yet: the store is called here, on this thread.
            let wall = Int64(time(nil))
            restored = directory.restoreAll(seatWaitMs: config.limits.seatWaitMs, spectatorAnnounceMs: config.spectatorAnnounceMs,
                                            recorded: { Self.recovered($0, in: store, wallSeconds: wall, log: log) })
            finished = FinishedJournals(path: directory.finishedPath, keep: config.keepFinished, maxAgeDays: config.keepFinishedDays)
            finished?.prune()
        } else {
            finished = nil
        }
        restoredMatches = restored.map(\.host.name)
        folderLock = lock
        self.clock = RestoredClock.clock(base: clock, state: state, journals: restored.map(\.host.lastActivity))
        accounts = AccountsEdge(store: store, loop: loop, clock: self.clock, log: log)
        // The house bots' names are kept where a door runs them.
        accounts.reservedNames = ReservedNames(houseBots: config.doorSocket != nil)
        journals?.restart(restored, at: self.clock.now())
        port = listener.port
        nextSweep = self.clock.now().adding(1_000)
        nextMeasure = self.clock.now().adding(Self.measureSliceMs)
        nextPrune = self.clock.now().adding(Self.pruneIntervalMs)
        dirty = OutputQueues(crowdRoundMs: config.crowdRoundMs)
        chatAllowance = ChatAllowance(lines: config.chat.linesPerWindow, windowMs: config.chat.windowMs)
        recordAllowance = RecordAllowance(limits: config.recordLimits)
        chatSilence = ChatSilence(path: config.chat.silencedFile ?? config.dataDirectory.map { "\($0)/silenced" })
        silenceReader = SilenceReader(file: config.chat.silencedReader ?? .disk)
        let dealt = DealtSeeds(config.seeds, keptIn: config.dataDirectory == nil ? nil : accounts)
        let seeds = SeedCounter(config.seeds, state: state, dealtBefore: dealt.contains)
        lobby = Lobby(settings: config.rules, seatWaitMs: config.limits.seatWaitMs, maxMatches: config.maxMatches,
                      journals: journals, listCacheMs: config.listCacheMs, nextSeed: seeds.next)
        lobby.addressLimits = config.addressLimits
        lobby.spectatorAnnounceMs = config.spectatorAnnounceMs
        lobby.reservedMatches = config.reservedMatches
        lobby.awaitsRecords = true
        lobby.adopt(restored)
        recoverGames(of: restored)
        restored.forEach(schedule)
        restored.forEach(noteSpectators)
        try ServerStartError.network(config) { () throws(SocketError) in try self.startAccepting() }
    }

    static let pruneIntervalMs: Int64 = 60_000

    /// Serves until `stop()`; then says goodbye to every client and closes every socket.
    package func run() {
        accounts.start()
        log("listening on \(config.host):\(port)")
        if let path = doorListener?.unixPath { log("door socket at \(path) for uids \(doorUIDs.sorted().map(String.init).joined(separator: ","))") }
        loop.run(timeout: { [unowned self] in self.waitMilliseconds() }, tick: { [unowned self] in self.tick() },
                 midBatch: { [unowned self] in self.flushDirty() })
        shutDown()
    }

    // MARK: The loop

    private func waitMilliseconds() -> Int32 {
        let now = clock.now()
        var next = min(deadlines.earliest ?? nextSweep, nextSweep)
        if let output = dirty.waitMilliseconds(at: now) { next = min(next, now.adding(output)) }
        if let due = announcements.earliest { next = min(next, due) }
        if let resume = acceptPausedUntil { next = min(next, resume) }
        if let retry = accounts.nextRetry { next = min(next, retry) }
        if config.lagCompensationMs > 0 { next = min(next, nextMeasure) }
        // Often enough to renew the clock's lease before the clock reaches it (`ServerState`).
        return Int32(max(0, min(ServerState.renewEveryMs, next.milliseconds(since: now))))
    }

    private func tick() {
        let now = clock.now()
        for (name, deadline) in deadlines.popDue(at: now) where scheduled[name] == deadline {
            scheduled[name] = nil
            guard let room = lobby.rooms[name] else { continue }
            apply(room.fireTimers(at: now), of: room)
        }
        for (name, _) in announcements.popDue(at: now) {
            announcing.remove(name)
            guard let room = lobby.rooms[name] else { continue }
            apply(room.announceSpectators(at: now), of: room)
        }
        if let resume = acceptPausedUntil, now >= resume { resumeAccepting() }
        accounts.retryDue(at: now)
        takeSilenceReading()
        if config.lagCompensationMs > 0, now >= nextMeasure {
            measureRoundTrips(slot: measureSlot, at: now)
            measureSlot = (measureSlot + 1) % Self.measureSlots
            nextMeasure = now.adding(Self.measureSliceMs)
        }
        if now >= nextSweep {
            sweep(at: now)
            nextSweep = now.adding(1_000)
        }
        if now >= nextPrune {
            finished?.pruneInBackground(log: log)
            nextPrune = now.adding(Self.pruneIntervalMs)
        }
        closePending()
        flushDirty()
    }

    /// Closes connections that sent nothing for too long, left a line unfinished too long, or
    /// could not be sent their fatal error in a whole sweep; puts new journal lines on disk.
    private func sweep(at now: Instant) {
        syncJournals(at: now)
        for line in logThrottle.overdue(at: now) { log(line) }
        closeOverdueLingering(at: now)
        forgetQuietAddresses(at: now)
        lobby.retireAbandoned(at: now)
        announceRoundTrips(at: now)
        for connection in connections.values where !connection.closeWhenFlushed {
            if now.milliseconds(since: connection.lastInput) > config.limits.idleTimeoutMs {
                fail(connection, WireError(.idleTimeout, "Nothing received for \(config.limits.idleTimeoutMs / 1000) s; send a ping to stay connected.", fatal: true))
            } else if !connection.pingedWhileIdle, now.milliseconds(since: connection.lastInput) > config.limits.idleTimeoutMs / 2 {
                // Half the allowance gone: ask once, so a client that is merely quiet can answer.
                connection.pingedWhileIdle = true
                ping(connection, at: now)
            } else if let since = connection.partialLineSince, now.milliseconds(since: since) > config.partialLineTimeoutMs {
                fail(connection, WireError(.idleTimeout, "A line stayed unfinished for \(config.partialLineTimeoutMs / 1000) s.", fatal: true))
            }
        }
    }

    // MARK: Sockets

    func ready(_ connection: Connection, _ readiness: Readiness) {
        guard connections[connection.id] === connection else { return }
        if readiness.contains(.writable) {
            if case .spectator(let room) = connection.session {
                // A watcher's socket has room again: it waits for its slice like any other
                // spectator output, so hundreds of them draining never delay a player's input.
                connection.socket.stopWatchingWritable()
                dirty.add(connection.id, room.spectators.count >= OutputQueues.crowdSize ? .crowd : .spectator)
            } else {
                flush(connection)
            }
        }
        if readiness.contains(.readable) || readiness.contains(.closed) { read(connection) }
    }

    /// One read per readiness: level-triggered epoll calls again while bytes remain, which keeps
    /// one busy client from starving the others.
    private func read(_ connection: Connection) {
        let lines: [LineReader.Line]
        switch connection.socket.read() {
        case .nothing: return
        case .endOfStream: return markClosed(connection, "disconnected")
        case .failed(let error): return markClosed(connection, "read failed: \(error)")
        case .lines(let read): lines = read
        }
        let now = clock.now()
        connection.lastInput = now
        // An unfinished line is timed from when it began: a read that completed lines starts a new one.
        connection.partialLineSince = !connection.socket.isMidLine ? nil
            : lines.isEmpty ? (connection.partialLineSince ?? now) : now
        for line in lines {
            guard connections[connection.id] != nil, !connection.closeWhenFlushed else { return }
            handle(line, from: connection, at: now)
        }
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
            guard let connection = connections.removeValue(forKey: id) else { continue }
            if connection.lingerOnClose { linger(connection.socket) } else { connection.socket.close() }
            forget(address: connection.address)
            // Comings and goings that leave nothing behind are logged at most once a second; a
            // player's, at most once a second per address, so reconnect churn stays quiet too.
            if connection.isSpectator || connection.room?.host.holdsSeats != true {
                logQuietly(connection.isSpectator ? "spectator-left" : "left", "\(connection.label) left: \(reason)")
            } else {
                logQuietly("left from \(connection.address)", "\(connection.label) left: \(reason)")
            }
            if let room = connection.room { apply(room.leave(id, at: clock.now()), of: room) }
        }
    }

    private func shutDown() {
        log("shutting down: telling \(connections.count) clients")
        let goodbye = ServerMessageCoding.line(.goodbye(reason: "The server is shutting down."))
        for connection in connections.values {
            connection.socket.send(goodbye)
            connection.socket.flush()
            connection.socket.close()
        }
        connections.removeAll()
        closeAllLingering()
        // Records asked for are committed (a game over they hold back is told after a restart).
        accounts.stop()
        lobby.closeJournals()
        accounts.checkpoint()
        MatchJournal.drain()
        FinishedJournals.drain()
        if acceptPausedUntil == nil {
            loop.unregister(listener.fd)
            if let doorListener { loop.unregister(doorListener.fd) }
        }
        listener.close()
        doorListener?.close()
        (clock as? LeasedTime)?.settle()
        folderLock?.release()
        log("stopped")
    }
}

/// Hands out seeds as `SeedSource` says; used only on the loop thread. Counting goes on across
/// restarts when the server keeps a data folder, and never deals a seed that folder dealt
/// before: not one its state file counted past (`ServerState.nextSeed`), nor one whose game its
/// accounts log holds (the state file lost or set aside), so each game's commitment is its own.
private final class SeedCounter {
    private var source: SeedSource
    private let state: ServerState?
    private let start: UInt64?
    private let dealtBefore: (UInt64) -> Bool

    init(_ source: SeedSource, state: ServerState?, dealtBefore: @escaping (UInt64) -> Bool) {
        self.source = source
        self.state = state
        self.dealtBefore = dealtBefore
        if case .counting(let start) = source { self.start = start } else { start = nil }
    }

    func next() -> UInt64 {
        switch source {
        case .random:
            // 2^64 seeds: a repeat is as likely as guessing a seat token.
            var generator = SystemRandomNumberGenerator()
            return generator.next()
        case .counting(let next):
            var seed = next
            repeat {
                if let state, let start {
                    seed = state.nextSeed(countingFrom: start)
                } else {
                    seed = source.countedSeed
                    source = .counting(from: seed &+ 1)
                }
            } while dealtBefore(seed)
            return seed
        }
    }
}

private extension SeedSource {
    var countedSeed: UInt64 {
        switch self {
        case .counting(let next): next
        case .random: 0
        }
    }
}
