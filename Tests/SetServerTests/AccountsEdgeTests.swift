import Foundation
import SetArena
import SetNet
import SetRatings
import SetRules
@testable import SetServer
import SetTestSupport
import SetWire
import Synchronization
import Testing

/// Issue 34, "never on the match loop" and "commit, then publish": the accounts store is called
/// only by the accounts edge's worker, so while a call hangs in it every match goes on, a join
/// waits for its account and is then seated, and a game over waits for its record.
@Suite(.serialized) struct AccountsEdgeTests {
    static let annKey = String(repeating: "a1", count: 32)
    static let bobKey = String(repeating: "b2", count: 32)
    static let catKey = String(repeating: "c3", count: 32)

    /// Connects and joins (nil key: a guest); returns the client once its snapshot came.
    func join(_ server: GatedServer, _ name: String, key: String?, match: String = "m", role: Role = .player) throws -> TestClient {
        try TestClient.joined(port: server.port, name: name, key: key, match: match, role: role)
    }

    func greeted(_ server: GatedServer) throws -> TestClient { try TestClient.greeted(port: server.port) }

    @Test func aDuelGoesOnAndAJoinWaitsForItsAccountWhileTheStoreHangs() throws {
        let gate = StoreGate()
        let server = try GatedServer(gate: gate)
        defer { gate.open(); server.stop() }
        let ann = try join(server, "ann", key: nil, match: "a")
        let bob = try join(server, "bob", key: nil, match: "a")
        try ann.awaitSeq(bob.view!.seq)

        gate.close()
        let cat = try greeted(server)
        var request = JoinRequest(name: "cat", match: "b")
        request.account = Self.catKey
        cat.send(.join(request))
        #expect(gate.awaitHeld(), "cat's lookup hangs in the store")
        // The duel in the other match is answered meanwhile, set, picks and all.
        try playScriptedTurn(ann, bob)
        #expect(ann.view?.player(.first)?.score ?? 0 > 0)
        // What the waiting connection asks meanwhile waits for its join's answer, and comes after it.
        cat.send(.act(.resign, seat: nil), id: "act")
        cat.send(.join(request), id: "again")

        gate.open()
        let first = try cat.next("joined")
        guard case .joined(_, _, _, let seat, _, _, _) = first else { Issue.record("\(first) came before joined"); return }
        #expect(seat == .first)
        _ = try cat.waitFor("snapshot") { if case .snapshot = $0 { true } else { nil } }
        #expect(cat.view?.player(.first)?.name == "cat")
        let refused = try (0..<2).map { _ in
            try cat.waitFor("error") { message -> String? in if case .error(let error, .string(let id)) = message { "\(error.code.rawValue) \(id)" } else { nil } }
        }
        #expect(refused == ["waiting_for_opponent act", "already_joined again"])
        withExtendedLifetime((ann, bob)) {}
    }

    @Test func aGameOverIsToldToNobodyUntilItsRecordIsCommittedAndSnapshotsWaitForIt() throws {
        let gate = StoreGate()
        let server = try GatedServer(gate: gate)
        defer { gate.open(); server.stop() }
        let ann = try join(server, "ann", key: Self.annKey)
        let bob = try join(server, "bob", key: Self.bobKey)
        let wat = try join(server, "wat", key: nil, role: .spectator)
        try ann.awaitSeq(wat.view!.seq)
        try bob.awaitSeq(wat.view!.seq)
        try playScriptedTurn(ann, bob)
        let lastSeq = bob.view!.seq, token = try #require(bob.token)
        bob.hangUp()  // he comes back with `lastSeq` while the record waits
        let away = try ann.awaitEvent("bob away") { if case .presence(.second, false, _) = $0 { true } else { false } }
        try wat.awaitSeq(away.seq)

        gate.close()
        ann.send(.act(.resign, seat: nil))
        #expect(gate.awaitHeld(), "the record hangs in the store")
        #expect(try ann.onlyPong(), "the player who resigned")
        #expect(try wat.onlyPong(), "a spectator's next read")
        // A snapshot and a resume with lastSeq wait for the game's end to be told.
        wat.send(.snapshot, id: "s")
        #expect(try wat.onlyPong(), "a snapshot request")
        let back = try greeted(server)
        // A ping written with the resume waits behind it: were the resume answered now, its pong
        // would come before the game over.
        back.sendRaw(ClientMessageEncoder.line(ClientRequest(.join(JoinRequest(name: "bob", match: "m", token: token, lastSeq: lastSeq))))
                     + ClientMessageEncoder.line(ClientRequest(id: "behind", .ping(time: 7))))
        #expect(try wat.onlyPong(), "a round trip after the resume was read")

        gate.open()
        for client in [ann, wat] {
            let over = try client.awaitEvent("game over") { if case .gameOver = $0 { true } else { false } }
            guard case .gameOver(_, _, let ratings) = over.body else { return }
            #expect(ratings.count == 2)
        }
        let shown = try wat.waitFor("snapshot") { message -> String? in
            if case .snapshot(let view) = message { "snapshot \(view.phase) ratings \(view.lastRatings.count)" } else { nil }
        }
        #expect(shown == "snapshot over ratings 2")
        let resent = try back.awaitEvent("game over, resent") { if case .gameOver = $0 { true } else { false } }
        #expect(!back.received.contains { if case .pong = $0 { true } else { false } }, "the resume was answered before its record")
        guard case .gameOver(_, _, let ratings) = resent.body else { return }
        #expect(ratings.count == 2)
        _ = try back.waitFor("pong") { if case .pong = $0 { true } else { nil } }
    }

    @Test func aStoreThatCannotCommitDelaysTheResultSaysSoAndDeliversItOnceItCan() throws {
        let gate = StoreGate()
        let server = try GatedServer(gate: gate)
        defer { server.stop() }
        let ann = try join(server, "ann", key: Self.annKey)
        let bob = try join(server, "bob", key: Self.bobKey)
        try ann.awaitSeq(bob.view!.seq)
        try playScriptedTurn(ann, bob)

        gate.failingRecords = true
        ann.send(.act(.resign, seat: nil))
        for client in [ann, bob] {
            let notice = try client.awaitError(.journalFailed)
            #expect(notice.message.contains("nothing is lost") && !notice.fatal)
        }
        #expect(try bob.snapshotAnswer() == "journal_failed")
        #expect(!bob.received.contains { if case .event(let event) = $0, case .gameOver = event.body { true } else { false } })

        gate.failingRecords = false
        server.advance(by: AccountsEdge.backoffMs(after: 1))
        let over = try bob.awaitEvent("game over") { if case .gameOver = $0 { true } else { false } }
        guard case .gameOver(_, _, let ratings) = over.body else { return }
        #expect(ratings.count == 2)
        #expect(gate.recordCalls == 2, "one failed try, one that committed")
    }

    @Test func aConnectionClosedWhileItsLookupWaitsIsNeitherSeatedNorGivenAnAccount() throws {
        let gate = StoreGate()
        let server = try GatedServer(gate: gate)
        defer { gate.open(); server.stop() }
        gate.close()
        let cat = try greeted(server)
        var request = JoinRequest(name: "cat", match: "b")
        request.account = Self.catKey
        cat.send(.join(request))
        #expect(gate.awaitHeld())
        cat.hangUp()
        // A round trip after the hang-up: the server has read the end of cat's stream by its pong.
        let other = try greeted(server)
        #expect(try other.onlyPong())

        gate.open()
        let dan = try join(server, "dan", key: nil, match: "b")
        #expect(dan.view?.players.map(\.name) == ["dan"])
        dan.send(.account(.profile(name: "cat")))
        #expect(try dan.awaitError(.noSuchPlayer).code == .noSuchPlayer)
        #expect(gate.createCalls == 0)
    }

    @Test func aStoreThatCannotAnswerIsToldWithoutItsAddressWhichGoesToTheLogOnly() throws {
        let gate = StoreGate()
        let lines = ServerLogLines()
        let server = try GatedServer(gate: gate, log: lines.log)
        defer { server.stop() }
        let eve = try join(server, "eve", key: nil)
        gate.unreachableForQuestions = true
        eve.send(.account(.profile(name: "eve")))
        let refusal = try eve.awaitError(.journalFailed)
        #expect(!refusal.message.contains("postgresql"))
        #expect(!refusal.message.contains("10.1.2.3"))
        #expect(refusal.message.contains("cannot reach its accounts"))
        #expect(lines.all.contains { $0.contains(StoreGate.secretReason) })
    }

    @Test func oneConnectionCannotFillTheStoresQueue() throws {
        let gate = StoreGate()
        let server = try GatedServer(gate: gate)
        defer { gate.open(); server.stop() }
        let eve = try join(server, "eve", key: nil)
        gate.close()
        let bound = 32
        for index in 0...bound { eve.send(.account(.profile(name: "eve")), id: .int(Int64(index))) }
        // Answered at once, while the first question still hangs in the store.
        let refused = try eve.waitFor("refusal") { message -> JSONValue?? in if case .error(_, let id) = message { .some(id) } else { nil } }
        #expect(refused == .int(Int64(bound)))
        gate.open()
        for _ in 0..<bound {
            _ = try eve.waitFor("answer") { message -> Bool? in
                if case .error(let error, _) = message, error.code == .noSuchPlayer { return true }
                return nil
            }
        }
    }
}

/// Holds the store's calls while closed: each one waits until it opens. Any thread.
final class StoreGate: Sendable {
    private let state = Mutex<(closed: Bool, held: Int)>((false, 0))
    private let entered = DispatchSemaphore(value: 0)
    private let released = DispatchSemaphore(value: 0)
    private let failing = Atomic<Bool>(false)
    private let unreachable = Atomic<Bool>(false)
    private let records = Atomic<Int>(0)
    private let creates = Atomic<Int>(0)

    func close() { state.withLock { $0.closed = true } }

    func open() {
        let held = state.withLock { state in
            state.closed = false
            defer { state.held = 0 }
            return state.held
        }
        for _ in 0..<held { released.signal() }
    }

    /// Whether `record` throws `.unavailable`, as a store that cannot commit does.
    var failingRecords: Bool {
        get { failing.load(ordering: .acquiring) }
        set { failing.store(newValue, ordering: .releasing) }
    }

    /// Whether questions throw `.unavailable` with a reason naming the database's address, as a
    /// PostgreSQL that is down does.
    var unreachableForQuestions: Bool {
        get { unreachable.load(ordering: .acquiring) }
        set { unreachable.store(newValue, ordering: .releasing) }
    }

    var recordCalls: Int { records.load(ordering: .acquiring) }
    var createCalls: Int { creates.load(ordering: .acquiring) }

    /// What an unreachable store says about itself: for the server's log, never for a player.
    static let secretReason = "connection to postgresql://setgame@10.1.2.3:5432/accounts refused"

    /// Waits (a call's worth, at most 10 s) until a store call is held at the gate.
    func awaitHeld() -> Bool { entered.wait(timeout: .now() + 10) == .success }

    /// Called by the store first thing in every call: waits while the gate is closed.
    func pass() {
        let hold = state.withLock { state in
            guard state.closed else { return false }
            state.held += 1
            return true
        }
        guard hold else { return }
        entered.signal()
        released.wait()
    }

    func countRecord() { records.add(1, ordering: .relaxed) }
    func countCreate() { creates.add(1, ordering: .relaxed) }
}

/// An accounts store in memory whose every call passes a `StoreGate` first.
final class GatedStore: AccountStore {
    private let gate: StoreGate

    /// The store behind the gate: SQLite in memory.
    private let inner: AccountStore

    init(gate: StoreGate) throws {
        self.gate = gate
        inner = try SQLAccountStore.open(.memory, dataFolder: nil, policy: .standard, wallSeconds: 1, log: .silent)
    }

    func close() { inner.close() }

    func account(for identity: PlayerIdentity) throws(StoreError) -> StoredAccount? {
        gate.pass()
        return try inner.account(for: identity)
    }

    func account(named name: String) throws(StoreError) -> StoredAccount? {
        gate.pass()
        return try inner.account(named: name)
    }

    func account(lookingLike name: String) throws(StoreError) -> StoredAccount? {
        gate.pass()
        return try inner.account(lookingLike: name)
    }

    func account(id: Int) throws(StoreError) -> StoredAccount? {
        gate.pass()
        return try inner.account(id: id)
    }

    func create(_ identity: PlayerIdentity, name: String, bot: Bool, wallSeconds: Int64, charging charge: RecordCharge) throws(StoreError) -> StoredAccount {
        gate.pass()
        gate.countCreate()
        return try inner.create(identity, name: name, bot: bot, wallSeconds: wallSeconds, charging: charge)
    }

    func rename(_ id: Int, to name: String, charging charge: RecordCharge) throws(StoreError) -> StoredAccount {
        gate.pass()
        return try inner.rename(id, to: name, charging: charge)
    }

    func record(_ finished: FinishedGame, journal: String, wallSeconds: Int64, policy: RatingPolicy) throws(StoreError) -> GameRecord? {
        gate.pass()
        gate.countRecord()
        if gate.failingRecords { throw .unavailable("the test's store cannot commit") }
        return try inner.record(finished, journal: journal, wallSeconds: wallSeconds, policy: policy)
    }

    func game(commitment: String) throws(StoreError) -> GameRecord? {
        gate.pass()
        return try inner.game(commitment: commitment)
    }

    func profile(_ name: String) throws(StoreError) -> Result<StoredProfile, WireError> {
        gate.pass()
        if gate.unreachableForQuestions { throw .unavailable(StoreGate.secretReason) }
        return try inner.profile(name)
    }

    func history(_ name: String, after: String?, limit: Int, id: JSONValue?) throws(StoreError) -> Result<[UInt8], WireError> {
        gate.pass()
        return try inner.history(name, after: after, limit: limit, id: id)
    }

    func crosstable(_ name: String, _ other: String) throws(StoreError) -> Result<AccountInfo, WireError> {
        gate.pass()
        return try inner.crosstable(name, other)
    }

    func leaderboard(_ variant: Variant, after: String?, limit: Int) throws(StoreError) -> Result<AccountInfo, WireError> {
        gate.pass()
        return try inner.leaderboard(variant, after: after, limit: limit)
    }

    func createArena(_ request: ArenaCreateRequest) throws(StoreError) -> Result<StoredArena, WireError> {
        gate.pass()
        return try inner.createArena(request)
    }

    func arena(named name: String) throws(StoreError) -> StoredArena? {
        gate.pass()
        return try inner.arena(named: name)
    }

    func arenas(endingAfter wall: Int64) throws(StoreError) -> [StoredArena] {
        gate.pass()
        return try inner.arenas(endingAfter: wall)
    }

    func profileArenas(ofAccountNamed name: String, limit: Int) throws(StoreError) -> [ProfileArena] {
        gate.pass()
        return try inner.profileArenas(ofAccountNamed: name, limit: limit)
    }

    func keepFinalPlaces(_ places: [ArenaPlace], in arena: String) throws(StoreError) {
        gate.pass()
        try inner.keepFinalPlaces(places, in: arena)
    }

    func createScheduledArena(_ slot: ArenaSchedule.Slot, variant: Variant, wall: Int64) throws(StoreError) -> Bool {
        gate.pass()
        return try inner.createScheduledArena(slot, variant: variant, wall: wall)
    }

    func arenasWithDuelsDealt() throws(StoreError) -> [String] {
        gate.pass()
        return try inner.arenasWithDuelsDealt()
    }

    func recordedArenaEnds(of arena: StoredArena) throws(StoreError) -> [Int: ArenaGameEnd] {
        gate.pass()
        return try inner.recordedArenaEnds(of: arena)
    }

    func saveArenaPlayer(_ player: StoredArenaPlayer, in arena: String) throws(StoreError) {
        gate.pass()
        try inner.saveArenaPlayer(player, in: arena)
    }

    func dealArenaGame(_ game: ArenaGame, tokens: [String], in arena: String) throws(StoreError) -> Bool {
        gate.pass()
        return try inner.dealArenaGame(game, tokens: tokens, in: arena)
    }

    func finishArenaGame(_ game: ArenaGame, _ end: ArenaGameEnd, in arena: String) throws(StoreError) -> Bool {
        gate.pass()
        return try inner.finishArenaGame(game, end, in: arena)
    }
}

/// A real server on a loopback port whose accounts store is a `GatedStore`, with a clock the test moves.
final class GatedServer: Sendable {
    let running: RunningServer
    let clock = ManualTime(1_000)

    init(gate: StoreGate, log: ServerLog = .silent) throws {
        var config = ServerConfig()
        config.port = 0
        config.seeds = .counting(from: 1)
        config.spectators.announceMs = 0
        config.list.cacheMs = 0
        config.spectators.crowdRoundMs = 0
        config.perAddress.connectsPerSecond = 1_000_000
        running = RunningServer(try Server(config: config, clock: clock, log: log, store: try GatedStore(gate: gate)))
    }

    var port: UInt16 { running.port }

    func advance(by milliseconds: Int64) {
        clock.advance(by: milliseconds)
        running.control.wake()
    }

    func stop() { running.stop() }
}
