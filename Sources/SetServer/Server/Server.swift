import Glibc
import SetNet
import SetRules
import SetWire
import Synchronization

/// The authoritative match server: one epoll loop on one thread owns every socket, match and
/// timer. It is not `Sendable`: it belongs to the thread that runs it (`runOnNewThread` hands it
/// over), and other threads reach it only through its `control`, to stop or wake it.
///
/// It wires loop-owned parts, each with one concern, and performs what the rooms return: who
/// may connect (`Admission`), the open connections and their output (`ConnectionTable`), what
/// is due when (`ServerTimers`), the server's own chat rules (`ChatGate`), and the accounts.
package final class Server {
    package let config: ServerConfig
    /// Stops or wakes the server from any thread.
    package let control: ServerControl
    package let port: UInt16
    /// The names of the unfinished matches restored from the data directory at start.
    package let restoredMatches: [String]
    let clock: TimeSource
    let log: ServerLog
    /// The same log, for conditions said at most once a second (`logQuietly`).
    let quietLog: ThrottledLog
    let loop: EventLoop
    let lobby: Lobby
    /// The arenas held here (`Server+ArenaRoom`).
    let arenaRooms = ArenaRooms()
    /// Accounts, names, ratings and finished games: the store, called off the loop (`AccountsEdge/`).
    let accounts: AccountsEdge
    /// This node's lease and where other nodes' matches live, when it is one of several (`Cluster/`).
    let nodes: NodeEdge?
    let admission: Admission
    let connections: ConnectionTable
    let timers: ServerTimers
    let chatGate: ChatGate
    let finished: FinishedJournals?
    /// The `flock` on the data folder, held while the server runs.
    let folderLock: FolderLock?
    /// New accounts and renames each address, network and account may still write.
    var recordAllowance: RecordAllowance
    /// The store probe `health` requests share (`Server+Health`).
    var health = HealthProbe()

    /// Binds the listening socket at once, so `port` is known before `run()`. With a data
    /// directory, every unfinished match in it is then restored, paused until its players return,
    /// and the server's clock continues from the latest instant the journals hold.
    package convenience init(config: ServerConfig, clock: TimeSource = MonotonicTime(), log: ServerLog = ServerLog()) throws(ServerStartError) {
        try self.init(config: config, clock: clock, log: log, store: nil)
    }

    /// `store`: the accounts store to use instead of the one `config` names (tests).
    init(config: ServerConfig, clock: TimeSource, log: ServerLog, store given: sending AccountStore?) throws(ServerStartError) {
        Sockets.ignoreBrokenPipes()
        if let problem = config.cluster.problem(store: config.store) { throw .cluster(problem) }
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
        let listener: Listener, doorListener: Listener?
        do throws(SystemCallError) {
            loop = try EventLoop()
            listener = try Listener(host: config.host, port: config.port, maxLineBytes: config.limits.maxLineBytes,
                                    maxQueuedBytes: config.limits.outboundQueueBytes)
            listener.sendBufferBytes = ConnectionTable.kernelSendBufferBytes
        } catch {
            lock?.release()
            throw .network(host: config.host, port: config.port, error)
        }
        do throws(SystemCallError) {
            doorListener = try config.door.socket.map { (path) throws(SystemCallError) in
                try Listener(unixPath: path, maxLineBytes: config.limits.maxLineBytes, maxQueuedBytes: config.limits.outboundQueueBytes)
            }
        } catch {
            lock?.release()
            throw .doorSocket(path: config.door.socket ?? "", error)
        }
        control = ServerControl(loop: loop)
        var store: AccountStore
        if let given {
            store = given
        } else {
            // Without --store: the SQLite file in the data folder, or SQLite in memory. An empty
            // database is filled from what the data folder holds (an earlier version's accounts
            // log, or the SQLite file of a server moving to PostgreSQL).
            let location = config.store ?? .standard(dataFolder: config.dataDirectory)
            do throws(StoreError) {
                store = try SQLAccountStore.open(location, dataFolder: config.dataDirectory, policy: .standard, wallSeconds: Int64(time(nil)),
                                                 log: log, allowingEmpty: config.accounts.allowsEmptyStore)
            } catch {
                lock?.release()
                if case .unavailable(let why) = error, case .postgres = location { throw .storeUnreachable("\(location.shown): \(why)") }
                let reason = if case .unavailable(let why) = error { why } else { error.description }
                throw .store(location: location.shown, reason: reason)
            }
        }
        // The records lane's and the questions lane's own connections (`AccountsEdge`); a store
        // a test gave, or one in memory, has one connection, which the lanes share.
        let ownsStore = given == nil
        var records: AccountStore? = nil, questions: AccountStore? = nil
        if ownsStore {
            let location = config.store ?? .standard(dataFolder: config.dataDirectory)
            records = try? SQLAccountStore.another(location)
            questions = try? SQLAccountStore.another(location, readOnly: true)
        }
        if let faults = config.accounts.faults {
            store = FaultyStore(store, faults: faults)
            records = records.map { FaultyStore($0, faults: faults) }
            questions = questions.map { FaultyStore($0, faults: faults) }
        }
        // The store goes to the accounts edge's lanes once the journals are replayed; meanwhile
        // the replay reaches it through this handoff, which keeps it the edge's alone after.
        let handoff = Mutex<AccountStore?>(store)
        if let directory = journals {
            state = ServerState(in: directory)
            // Accounts first: a replayed game over is told with its record's ratings, as it was.
            // The loop does not run yet: the store is called here, on this thread.
            let wall = Int64(time(nil))
            restored = directory.restoreAll(seatWaitMs: config.limits.seatWaitMs, spectatorAnnounceMs: config.spectators.announceMs,
                                            recorded: { finished in
                                                handoff.withLock { Self.recovered(finished, in: $0!, wallSeconds: wall, log: log) }
                                            })
            finished = FinishedJournals(path: directory.finishedPath, keep: config.finished.keep, maxAgeDays: config.finished.maxAgeDays)
            finished?.prune()
        } else {
            finished = nil
        }
        restoredMatches = restored.map(\.host.name)
        folderLock = lock
        self.clock = RestoredClock.clock(base: clock, state: state, journals: restored.map(\.host.lastActivity))
        // The restored matches pause from the restarted clock's first instant, not from when the
        // start is done: a node restarted after a crash then watches its own name's lease for up
        // to 10 s first, and a window must not run out meanwhile (Protocol.md: a window keeps
        // what it had left when the server stopped, up to a second less after a crash).
        let restartedAt = self.clock.now()
        accounts = AccountsEdge(store: handoff.withLock { $0.take()! }, records: records, questions: questions, loop: loop, clock: self.clock, log: log,
                                closesStore: ownsStore)
        do throws(ServerStartError) { nodes = try NodeEdge.open(config, boundPort: listener.port, loop: loop, clock: self.clock, log: log) } catch {
            lock?.release()
            throw error
        }
        // The house bots' names are kept on every node, door or not: the names are the service's.
        accounts.reservedNames = ReservedNames(houseBots: config.accounts.keepsHouseBotNames)
        journals?.restart(restored, at: restartedAt)
        port = listener.port
        recordAllowance = RecordAllowance(limits: config.recordLimits)
        let dealt = DealtSeeds(config.seeds, keptIn: config.dataDirectory == nil ? nil : accounts)
        let seeds = SeedCounter(config.seeds, state: state, dealtBefore: dealt.contains)
        lobby = Lobby(settings: config.rules, seatWaitMs: config.limits.seatWaitMs, maxMatches: config.maxMatches,
                      journals: journals, listCacheMs: config.list.cacheMs, nextSeed: seeds.next,
                      now: self.clock.now)
        lobby.addressLimits = config.addressLimits
        lobby.spectatorAnnounceMs = config.spectators.announceMs
        // The accepted challenges' duels no player had made when the last run stopped.
        let kept = journals.map { ReservedDuelsFile(folder: $0.path).read() } ?? [:]
        lobby.reservedMatches = config.reservedMatches.merging(kept) { given, _ in given }
        lobby.awaitsRecords = true
        lobby.node = nodes?.me.name
        lobby.challenges.size = config.perAddress.lobby
        lobby.adopt(restored)
        quietLog = ThrottledLog(log, clock: self.clock)
        connections = ConnectionTable(loop: loop, clock: self.clock, limits: config.limits, crowdRoundMs: config.spectators.crowdRoundMs,
                                      log: quietLog, lobby: lobby)
        admission = Admission(listener: listener, doorListener: doorListener, config: config, loop: loop, clock: self.clock,
                              log: quietLog, connections: connections)
        timers = ServerTimers(measuringRoundTrips: config.lagCompensationMs > 0, at: self.clock.now())
        // A node's silenced list is the service's, in the store: its file is imported, not watched.
        chatGate = ChatGate(policy: config.chat, dataDirectory: nodes == nil ? config.dataDirectory : nil, loop: loop, log: quietLog,
                            watchesFile: nodes == nil)
        // A node counts an account's chat lines only while it holds its budget (`ChatLeases`).
        if nodes != nil { chatGate.leases = ChatLeases(windowMs: config.chat.windowMs) }
        wireParts()
        importSilencedFile()
        recoverGames(of: restored)
        restored.forEach(schedule)
        restored.forEach(noteSpectators)
        try ServerStartError.network(config) { () throws(SystemCallError) in try self.admission.startAccepting() }
    }

    /// What the connections part hands back to the server: a socket's readiness, and a
    /// connection gone (its seat waits, or its spectator leaves).
    private func wireParts() {
        connections.ready = { [unowned self] connection, readiness in self.ready(connection, readiness) }
        connections.left = { [unowned self] connection in
            self.accounts.noteOwner(connection.id, false)
            if let room = connection.room { self.apply(room.leave(connection.id, at: self.clock.now()), of: room) }
        }
    }

    /// Serves until `stop()`; then says goodbye to every client and closes every socket.
    package func run() {
        accounts.start()
        nodes?.start()
        resumeArenas()
        keepArenaSchedule()
        log("listening on \(config.host):\(port)")
        Self.warnings(for: config).forEach { log($0) }
        if let path = admission.doorListener?.unixPath {
            log("door socket at \(path) for uids \(admission.doorUIDs.sorted().map(String.init).joined(separator: ","))")
        }
        loop.run(timeout: { [unowned self] in self.waitMilliseconds() }, tick: { [unowned self] in self.tick() },
                 midBatch: { [unowned self] in self.connections.flushDirty() })
        shutDown()
    }
}
