import Dispatch
import SetArena
import SetRatings
import SetRules
import SetWire
import Synchronization

/// A switch tests throw to make the accounts store fail as a full disk or a lost database does:
/// while it is on, every change (an account made, a rename, a game recorded) throws
/// `StoreError.unavailable` and changes nothing; questions are still answered.
package final class StoreFaults: Sendable, Equatable {
    private let on = Atomic<Bool>(false)

    package init() {}

    /// The same switch: a copy of a config shares its switch with the original, another does not.
    package static func == (lhs: StoreFaults, rhs: StoreFaults) -> Bool { lhs === rhs }

    /// Whether changes fail now.
    package var failing: Bool {
        get { on.load(ordering: .acquiring) }
        set { on.store(newValue, ordering: .releasing) }
    }

    private let arenaEndsLost = Atomic<Bool>(false)

    /// Whether arena duels' ends fail to be written now (everything else is written): a test
    /// stops the server in that state, as a node killed after a duel's record committed and
    /// before its arena wrote the duel's end.
    package var losingArenaEnds: Bool {
        get { arenaEndsLost.load(ordering: .acquiring) }
        set { arenaEndsLost.store(newValue, ordering: .releasing) }
    }

    /// Held: the list of arenas a starting server holds again waits on its lane until released
    /// (a test makes a duel end in that moment after a restart).
    package let arenaList = HeldCalls()
    /// Held: an account made or renamed waits on its lane until released (a test closes the
    /// joining connection in that moment).
    package let accountWrites = HeldCalls()
}

/// A kind of store call a test holds on its lane (`hold`) until it lets it go on (`release`).
package final class HeldCalls: Sendable {
    private let held = Atomic<Bool>(false)
    private let gate = DispatchSemaphore(value: 0)

    /// From now on, the calls wait.
    package func hold() { held.store(true, ordering: .releasing) }

    /// Lets the waiting call, and every later one, go on.
    package func release() {
        if held.exchange(false, ordering: .acquiringAndReleasing) { gate.signal() }
    }

    /// Waits here while held (on the lane's thread).
    fileprivate func pass() {
        if held.load(ordering: .acquiring) { gate.wait() }
    }
}

/// The server's store when a test gave it `StoreFaults`: the real one, whose changes fail while
/// the switch is on.
final class FaultyStore: AccountStore {
    private let inner: AccountStore
    private let faults: StoreFaults

    init(_ inner: AccountStore, faults: StoreFaults) {
        (self.inner, self.faults) = (inner, faults)
    }

    func close() { inner.close() }

    private func change<T>(_ body: () throws(StoreError) -> T) throws(StoreError) -> T {
        if faults.failing { throw .unavailable("the test's store cannot commit") }
        return try body()
    }

    func account(for identity: PlayerIdentity) throws(StoreError) -> StoredAccount? { try inner.account(for: identity) }

    func account(named name: String) throws(StoreError) -> StoredAccount? { try inner.account(named: name) }

    func account(lookingLike name: String) throws(StoreError) -> StoredAccount? { try inner.account(lookingLike: name) }

    func account(id: Int) throws(StoreError) -> StoredAccount? { try inner.account(id: id) }

    func create(_ identity: PlayerIdentity, name: String, bot: Bool, wallSeconds: Int64, charging charge: RecordCharge) throws(StoreError) -> StoredAccount {
        faults.accountWrites.pass()
        return try change { () throws(StoreError) in try inner.create(identity, name: name, bot: bot, wallSeconds: wallSeconds, charging: charge) }
    }

    func rename(_ id: Int, to name: String, charging charge: RecordCharge) throws(StoreError) -> StoredAccount {
        try change { () throws(StoreError) in try inner.rename(id, to: name, charging: charge) }
    }

    func record(_ finished: FinishedGame, journal: String, wallSeconds: Int64, policy: RatingPolicy) throws(StoreError) -> GameRecord? {
        try change { () throws(StoreError) in try inner.record(finished, journal: journal, wallSeconds: wallSeconds, policy: policy) }
    }

    func game(commitment: String) throws(StoreError) -> GameRecord? { try inner.game(commitment: commitment) }

    func profile(_ name: String) throws(StoreError) -> Result<StoredProfile, WireError> { try inner.profile(name) }

    func history(_ name: String, after: String?, limit: Int, id: JSONValue?) throws(StoreError) -> Result<[UInt8], WireError> {
        try inner.history(name, after: after, limit: limit, id: id)
    }

    func crosstable(_ name: String, _ other: String) throws(StoreError) -> Result<AccountInfo, WireError> { try inner.crosstable(name, other) }

    func leaderboard(_ variant: Variant, after: String?, limit: Int) throws(StoreError) -> Result<AccountInfo, WireError> {
        try inner.leaderboard(variant, after: after, limit: limit)
    }

    func createArena(_ request: ArenaCreateRequest) throws(StoreError) -> Result<StoredArena, WireError> {
        try change { () throws(StoreError) in try inner.createArena(request) }
    }

    func arena(named name: String) throws(StoreError) -> StoredArena? { try inner.arena(named: name) }

    func arenas(endingAfter wall: Int64) throws(StoreError) -> [StoredArena] { try inner.arenas(endingAfter: wall) }

    func profileArenas(ofAccountNamed name: String, limit: Int) throws(StoreError) -> [ProfileArena] {
        try inner.profileArenas(ofAccountNamed: name, limit: limit)
    }

    func keepFinalPlaces(_ places: [ArenaPlace], in arena: String) throws(StoreError) {
        try change { () throws(StoreError) in try inner.keepFinalPlaces(places, in: arena) }
    }

    func createScheduledArena(_ slot: ArenaSchedule.Slot, variant: Variant, wall: Int64) throws(StoreError) -> Bool {
        try change { () throws(StoreError) in try inner.createScheduledArena(slot, variant: variant, wall: wall) }
    }

    func arenasWithDuelsDealt() throws(StoreError) -> [String] {
        faults.arenaList.pass()
        return try inner.arenasWithDuelsDealt()
    }

    func recordedArenaEnds(of arena: StoredArena) throws(StoreError) -> [Int: ArenaGameEnd] { try inner.recordedArenaEnds(of: arena) }

    func saveArenaPlayer(_ player: StoredArenaPlayer, in arena: String) throws(StoreError) {
        try change { () throws(StoreError) in try inner.saveArenaPlayer(player, in: arena) }
    }

    func dealArenaGame(_ game: ArenaGame, tokens: [String], in arena: String) throws(StoreError) -> Bool {
        try change { () throws(StoreError) in try inner.dealArenaGame(game, tokens: tokens, in: arena) }
    }

    func finishArenaGame(_ game: ArenaGame, _ end: ArenaGameEnd, in arena: String) throws(StoreError) -> Bool {
        if faults.losingArenaEnds { throw .unavailable("the test's store loses arena ends") }
        return try change { () throws(StoreError) in try inner.finishArenaGame(game, end, in: arena) }
    }
}
