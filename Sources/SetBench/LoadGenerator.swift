import Glibc
import SetNet
import SetRules
import SetWire

/// What to load a server with.
package struct BenchConfig: Sendable {
    /// The servers to load: duels go to them in turn, each duel's players and spectators on one.
    package var servers = [ServerAddress()]
    package var matches = 100
    package var spectatorsPerMatch = 2
    /// Each bot acts about this often; 0 acts as soon as its last request was answered.
    package var paceMs = 500
    package var durationSeconds = 10.0
    /// Ends the run early once this many games are completed (tests wait for a result this
    /// way, whatever the machine's speed); nil: it runs for `durationSeconds`.
    package var stopAfterGames: Int?
    /// Every spectator pings this often, for the round-trip baseline.
    package var pingIntervalMs = 1_000
    /// The variant every duel plays.
    package var variant = Variant.classic
    /// Names the run's matches "bench-RUN-INDEX"; nil picks a fresh run name.
    package var run: String?
    /// On a loopback server, connect from many 127.x.y.z addresses, a few connections each, so
    /// the server's per-address limits (which a real crowd never meets) do not refuse the load.
    package var spreadOverLoopback = true

    package init() {}
}

/// What a run measured on the client side.
package struct LoadResult: Sendable {
    package var actions = 0
    package var gamesCompleted = 0
    package var eventsDelivered = 0
    package var bytesReceived = 0
    package var errors: [String: Int] = [:]
    package var drops = 0
    package var actionLatency = Percentiles(microseconds: [])
    package var pingLatency = Percentiles(microseconds: [])
    package var seconds = 0.0
    package var connections = 0
    package var matches = 0
    /// `redirect` answers followed: a duel's join sent on to the server its match lives on.
    package var redirects = 0
    /// Each loaded server's share, in the order listed (then servers only a redirect named).
    package var servers: [ServerLoad] = []
}

/// Drives `matches` duels of load bots plus spectators over loopback TCP, on one event loop
/// thread, and measures each action's latency to the last recipient of its final event.
package final class LoadGenerator {
    private let config: BenchConfig
    private let loop: EventLoop
    var players: [BenchPlayer] = []
    var spectators: [(match: BenchMatch, connection: LineSocket, joined: Bool)] = []
    private var wakeUps = DeadlineQueue<Int>()
    private var dirty: [LineSocket] = []
    /// Every connection is read on the loop's thread, into this one buffer.
    private let readBuffer = ReadBuffer()
    /// Players that heard something in this batch: they decide once it is all read, since one
    /// action's events (a deal's new cards, then the grace window) arrive together.
    private var toDecide: [Int] = []
    /// Requests queued on a connection but not yet written; their send time is taken at the write.
    private var unstamped: [ObjectIdentifier: [Stamp]] = [:]

    private enum Stamp {
        case action(player: Int)
        case ping(id: Int)
    }
    private var nextID = 0
    private var pingsSent: [Int: UInt64] = [:]
    /// The servers loaded (those listed, then those a redirect named) and what each measured.
    var homes: [ServerAddress]
    var tallies: [LoadTally]
    private var measuring = false
    /// The first refusal of a connection before the load began: waiting for every seat ends there.
    private var refusal: String?
    private var connectionsMade = 0
    /// A player given this many redirects in a row is refused: the servers send it round in circles.
    static let redirectLimit = 3

    package init(_ config: BenchConfig) throws(SystemCallError) {
        Sockets.ignoreBrokenPipes()
        self.config = config
        homes = config.servers.isEmpty ? [ServerAddress()] : config.servers
        tallies = Array(repeating: LoadTally(), count: homes.count)
        loop = try EventLoop()
    }

    /// Connects everyone, waits until every seat and spectator has joined, measures for the
    /// configured duration, and returns what it saw.
    package func run(progress: (String) -> Void = { _ in }) throws(LoadFailure) -> LoadResult {
        let recipients = 2 + config.spectatorsPerMatch
        let run = config.run ?? String(MonotonicTime.rawNanoseconds() % 1_000_000, radix: 36)
        let matches = (0..<config.matches).map { BenchMatch(index: $0, recipients: recipients, run: run, server: $0 % homes.count) }
        for match in matches {
            for seat in 0..<2 { try addPlayer(match, name: "p\(match.index)-\(seat)") }
        }
        runUntil { self.refusal != nil || self.players.allSatisfy(\.hasJoined) }
        try stopIfRefused()
        progress("\(players.count) players seated in \(matches.count) matches")
        for match in matches {
            for _ in 0..<config.spectatorsPerMatch { try addSpectator(match) }
        }
        runUntil { self.refusal != nil || self.spectators.allSatisfy(\.joined) }
        try stopIfRefused()
        progress("\(spectators.count) spectators watching; measuring for \(config.durationSeconds) s")
        measuring = true
        let start = MonotonicTime.rawNanoseconds()
        let end = start + UInt64(config.durationSeconds * 1e9)
        // People do not act in step: each bot starts at its own moment within one pace interval.
        var jitter = SplitMix64(seed: 7)
        for index in players.indices {
            players[index].nextActionAt = start + UInt64(jitter.uniform(below: max(1, config.paceMs * 1_000))) * 1_000
            act(index, at: start)
        }
        var pinged = 0
        let pingInterval = Double(config.pingIntervalMs) * 1e6
        runUntil {
            let now = MonotonicTime.rawNanoseconds()
            // Pings spread evenly: each spectator once per interval, never all at once.
            let due = Int(Double(now - start) / pingInterval * Double(self.spectators.count))
            while pinged < due && !self.spectators.isEmpty {
                self.ping(self.spectators[pinged % self.spectators.count].connection, at: now)
                pinged += 1
            }
            if let games = self.config.stopAfterGames, matches.map(\.gamesCompleted).reduce(0, +) >= games { return true }
            return now >= end
        }
        measuring = false
        let seconds = Double(MonotonicTime.rawNanoseconds() - start) / 1e9
        for match in matches {
            tallies[match.server].matches += 1
            tallies[match.server].connections += 2 + config.spectatorsPerMatch
            tallies[match.server].gamesCompleted += match.gamesCompleted
        }
        for player in players { player.connection.close("done") }
        for spectator in spectators { spectator.connection.close("done") }
        var result = LoadTally.sum(tallies).result(seconds: seconds)
        result.servers = zip(homes, tallies).map { ServerLoad(address: $0.label, load: $1.result(seconds: seconds)) }
        return result
    }

    private func stopIfRefused() throws(LoadFailure) {
        guard let refusal else { return }
        for player in players { player.connection.close("done") }
        for spectator in spectators { spectator.connection.close("done") }
        throw .refused(reason: refusal, spread: spreads)
    }

    // MARK: Connections

    private var spreads: Bool { homes.contains { spreads(to: $0) } }

    private func spreads(to server: ServerAddress) -> Bool {
        config.spreadOverLoopback && (server.host.hasPrefix("127.") || server.host == "localhost")
    }

    /// A new connection to the match's server, from the next loopback source address when the
    /// load spreads: eight connections an address (four duels' players), well within any
    /// address's default share.
    func connect(to match: BenchMatch) throws(LoadFailure) -> LineSocket {
        let n = connectionsMade / 8
        connectionsMade += 1
        let server = homes[match.server]
        let source = spreads(to: server) ? "127.3.\(n / 250 % 256).\(1 + n % 250)" : nil
        do { return try LineSocket.connect(host: server.host, port: server.port, from: source, readBuffer: readBuffer) } catch {
            throw .socket(error)
        }
    }

    /// Notes the first refusal before the load began.
    func refused(_ reason: String) {
        if !measuring && refusal == nil { refusal = reason }
    }

    private func addPlayer(_ match: BenchMatch, name: String) throws(LoadFailure) {
        let connection = try connect(to: match)
        let player = BenchPlayer(match: match, seatName: name, connection: connection, variant: config.variant)
        players.append(player)
        try serve(connection, of: match) { [unowned self, index = players.count - 1] line in self.playerLine(index, line) }
        for message in player.connected() { send(message, on: connection) }
    }

    private func addSpectator(_ match: BenchMatch) throws(LoadFailure) {
        let connection = try connect(to: match)
        let index = spectators.count
        spectators.append((match, connection, false))
        try serve(connection, of: match) { [unowned self] line in self.spectatorLine(index, line) }
        send(.join(JoinRequest(role: .spectator, name: "s\(index)", match: match.name)), on: connection)
    }

    /// Reads `connection` on the loop: its lines to `onLine`, its end counted as a drop (or, before
    /// the load began, as the refusal that stops it).
    func serve(_ connection: LineSocket, of match: BenchMatch, onLine: @escaping ([UInt8]) -> Void) throws(LoadFailure) {
        connection.stampArrivals()
        connection.onLine = onLine
        connection.onClose = { [unowned self] reason in
            if self.measuring { self.tallies[match.server].drops += 1 } else { self.refused(reason) }
        }
        do { try connection.serve(on: loop) } catch { throw .socket(error) }
    }

    func send(_ message: ClientMessage, id: Int? = nil, on connection: LineSocket) {
        if connection.pendingBytes == 0 { dirty.append(connection) }
        connection.send(ClientMessageEncoder.line(ClientRequest(id: id.map { .int(Int64($0)) }, message)))
    }

    // MARK: Lines

    func playerLine(_ index: Int, _ line: [UInt8]) {
        let player = players[index]
        let now = player.connection.arrivalNanoseconds
        let fields = FastFields(line)
        count(line, player.match)
        switch fields.type {
        case "redirect": return redirectPlayer(index, line)
        case "event":
            if let seq = fields.int("seq") {
                arrived(player.match, seq, at: now)
                player.lastSeq = seq
            }
            if let kind = fields.kind, player.needsDecoding(kind: kind) { decode(line, into: player) }
        case "ack":
            if let id = fields.int("id"), let sent = player.replied(to: id), let seq = fields.int("seq") {
                if measuring { tallies[player.match.server].actions += 1 }
                if let latency = player.match.acknowledged(seq, sentAt: sent), measuring { tallies[player.match.server].actionSamples.append(latency) }
            }
        case "error":
            if !player.hasJoined { refused(Self.message(line)) }
            if measuring {
                let code = ServerMessageCoding.decode(line).map { message -> String in
                    if case .error(let error, _) = message { return error.code.rawValue }
                    return "?"
                }
                tallies[player.match.server].errors[(try? code.get()) ?? "undecodable", default: 0] += 1
            }
            if let id = fields.int("id") { _ = player.replied(to: id) }
        case "joined", "snapshot": decode(line, into: player)
        default: break
        }
        toDecide.append(index)
    }

    func spectatorLine(_ index: Int, _ line: [UInt8]) {
        let (match, connection, joined) = spectators[index]
        let now = connection.arrivalNanoseconds
        let fields = FastFields(line)
        count(line, match)
        switch fields.type {
        case "redirect": redirectSpectator(index, line)
        case "event": if let seq = fields.int("seq") { arrived(match, seq, at: now) }
        case "snapshot": spectators[index].joined = true
        case "pong":
            if let id = fields.int("id"), let sent = pingsSent.removeValue(forKey: id), measuring, now > sent {
                tallies[match.server].pingSamples.append(UInt32(clamping: (now - sent) / 1_000))
            }
        case "error":
            if !joined { refused(Self.message(line)) }
            if measuring { tallies[match.server].errors["spectator", default: 0] += 1 }
        default: break
        }
    }

    /// An error line's code and message, as a person reads them.
    private static func message(_ line: [UInt8]) -> String {
        guard case .success(.error(let error, _)) = ServerMessageCoding.decode(line) else { return String(decoding: line, as: UTF8.self) }
        return "\(error.code.rawValue): \(ServerText.printable(error.message))"
    }

    private func count(_ line: [UInt8], _ match: BenchMatch) {
        if measuring { tallies[match.server].bytesReceived += line.count + 1 }
    }

    private func arrived(_ match: BenchMatch, _ seq: Int, at now: UInt64) {
        if measuring { tallies[match.server].eventsDelivered += 1 }
        if let latency = match.arrived(seq, at: now), measuring { tallies[match.server].actionSamples.append(latency) }
    }

    private func decode(_ line: [UInt8], into player: BenchPlayer) {
        if case .success(let message) = ServerMessageCoding.decode(line) { player.take(message) }
    }

    // MARK: Acting

    private func act(_ index: Int, at now: UInt64) {
        let player = players[index]
        guard player.outstanding.isEmpty else { return }
        if player.nextActionAt > now {
            wakeUps.add(index, at: Instant(milliseconds: Int64(player.nextActionAt / 1_000_000)))
            return
        }
        guard measuring || !player.hasJoined else { return }
        let actions = player.nextActions(paced: config.paceMs > 0)
        guard !actions.isEmpty else { return }
        player.nextActionAt = now + UInt64(config.paceMs) * 1_000_000
        unstamped[ObjectIdentifier(player.connection), default: []].append(.action(player: index))
        for action in actions {
            nextID += 1
            player.sent(id: nextID)
            send(player.request(action), id: nextID, on: player.connection)
        }
    }

    private func ping(_ connection: LineSocket, at now: UInt64) {
        nextID += 1
        unstamped[ObjectIdentifier(connection), default: []].append(.ping(id: nextID))
        send(.ping(time: nil), id: nextID, on: connection)
    }

    /// Writes everything queued, each connection's requests stamped just before its write.
    private func flushAll() {
        for connection in dirty {
            if let stamps = unstamped.removeValue(forKey: ObjectIdentifier(connection)) {
                let now = LineSocket.realtimeNanoseconds()
                for stamp in stamps {
                    switch stamp {
                    case .action(let player): players[player].stamp(sentAt: now)
                    case .ping(let id): pingsSent[id] = now
                    }
                }
            }
            connection.flush()
        }
        dirty.removeAll(keepingCapacity: true)
    }

    private func runUntil(_ done: @escaping () -> Bool) {
        let loop = self.loop
        loop.run(timeout: { [unowned self] in
            guard let earliest = self.wakeUps.earliest else { return 1 }
            let wait = earliest.milliseconds - Int64(MonotonicTime.rawNanoseconds() / 1_000_000)
            return Int32(max(0, min(1, wait)))
        }, tick: { [unowned self] in
            let now = MonotonicTime.rawNanoseconds()
            for index in self.toDecide { self.act(index, at: now) }
            self.toDecide.removeAll(keepingCapacity: true)
            for index in self.wakeUps.popDueKeys(at: Instant(milliseconds: Int64(now / 1_000_000))) { self.act(index, at: now) }
            self.flushAll()
            if done() { loop.stop() }
        })
        loop.clearStop()
    }
}
