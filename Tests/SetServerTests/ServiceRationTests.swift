import SetDatabase
@testable import SetServer
import SetRules
import SetTestSupport
import SetWire
import Testing

/// The new-account and rename ration is the service's (issue 42 item 2): spent in the store's
/// transaction that writes the account, by the database's clock, so what one address spent
/// through node a is not there again through node c. Real nodes on one real PostgreSQL.
@Suite(.serialized) struct ServiceRationTests {
    typealias Nodes = NodeServerTests

    /// A node whose addresses may make `burst` accounts, then one a minute.
    static func node(_ name: String, _ database: TestDatabase, burst: Int) throws -> TestServer {
        try TestServer {
            $0.store = .postgres(database.location)
            $0.cluster.node = name
            $0.cluster.advertise = "127.0.0.1:0"
            $0.cluster.wallBaseMs = Nodes.wallBase
            $0.recordLimits.accountsPerAddress = RecordLimits.Bucket(burst: burst, everyMs: 60_000)
            $0.recordLimits.renamesPerAccount = RecordLimits.Bucket(burst: burst, everyMs: 60_000)
        }
    }

    /// What a new account's join from 127.0.0.1 through `server` got: nil when seated.
    static func join(_ server: TestServer, _ name: String, key: String?, match: String) throws -> WireError? {
        let client = try Nodes.greeted(server)
        var request = JoinRequest(name: name, match: match)
        request.account = key
        return try client.joinOutcome(request)
    }

    static func key(_ n: Int) -> String { String(repeating: String(format: "%02x", n), count: 32) }

    @Test func theRationSpentThroughOneNodeIsNotThereAgainThroughAnother() throws {
        guard let database = try TestDatabase.make(.postgres) else { return }
        let a = try Self.node("a", database, burst: 2), c = try Self.node("c", database, burst: 2)
        defer { a.stop(); c.stop() }
        let onA = (0...).lazy.map { "ra\($0)" }.filter { Rendezvous.home(of: $0, among: ["a", "c"]) == "a" }
        let onC = (0...).lazy.map { "rc\($0)" }.filter { Rendezvous.home(of: $0, among: ["a", "c"]) == "c" }
        #expect(try Self.join(a, "ann", key: Self.key(1), match: Array(onA.prefix(2))[0]) == nil)
        #expect(try Self.join(a, "bob", key: Self.key(2), match: Array(onA.prefix(2))[1]) == nil)
        // Node c's own count for 127.0.0.1 is untouched: only the store knows it is spent.
        let refused = try #require(try Self.join(c, "cy", key: Self.key(3), match: Array(onC.prefix(1))[0]))
        #expect(refused.code == .accountLimit)
        #expect((refused.details["retryAfterMs"]?.intValue ?? 0) > 0)
        #expect(try database.database.query("SELECT 1 FROM accounts WHERE name = 'cy'").isEmpty, "nothing written")
        // A guest is charged nothing, on either node.
        #expect(try Self.join(c, "dee", key: nil, match: Array(onC.prefix(2))[1]) == nil)
    }

    @Test func aBucketRefillsByTheDatabasesClockAndAMissingRowIsFull() {
        let limit = RecordLimits.Bucket(burst: 2, everyMs: 1_000)
        let charge = RecordCharge(items: [.init(key: "k", limit: limit), .init(key: "n", limit: RecordLimits.Bucket(burst: 1, everyMs: 5_000))])
        // No rows: both full; one token of each is spent, stamped with the database's time.
        guard case .spent(let first) = RecordRation.spend(charge, stored: [:], now: 100_000) else { Issue.record("not spent"); return }
        #expect(first == ["k": .init(levelMs: 1_000, atMs: 100_000), "n": .init(levelMs: 0, atMs: 100_000)])
        // The network's bucket is empty: the wait is the longest of the two, nothing spent.
        #expect(RecordRation.spend(charge, stored: first, now: 101_000) == .wait(ms: 4_000))
        guard case .spent(let later) = RecordRation.spend(charge, stored: first, now: 105_000) else { Issue.record("not refilled"); return }
        #expect(later["k"] == .init(levelMs: 1_000, atMs: 105_000), "refilled to its burst, not past it, then spent")
        // A clock that went back (another node's statement) neither refills nor rewinds the stamp.
        #expect(RecordRation.spend(charge, stored: later, now: 104_000) == .wait(ms: 5_000))
    }
    /// Rows of buckets that filled up again are pruned as records are charged: the table holds
    /// who wrote lately, not every address that ever made an account.
    @Test func aChargeRemovesRowsOfBucketsThatHaveFilledUpAgain() throws {
        guard let database = try TestDatabase.make(.postgres) else { return }
        let store = database.database
        for sql in RecordRation.migration.statements(.postgres) { try store.execute(sql) }
        var limits = RecordLimits()
        limits.accountsPerAddress = RecordLimits.Bucket(burst: 2, everyMs: 60_000)
        limits.accountsPerNetwork = RecordLimits.Bucket(burst: 3, everyMs: 60_000)
        limits.renamesPerAccount = RecordLimits.Bucket(burst: 1, everyMs: 60_000)
        limits.renamesPerAddress = RecordLimits.Bucket(burst: 1, everyMs: 60_000)
        #expect(limits.longestRefillMs == 180_000, "the network's: 3 tokens of a minute")
        let now = try store.query("SELECT (EXTRACT(EPOCH FROM clock_timestamp()) * 1000)::BIGINT")[0].int(0) as Int64
        for n in 0..<(RecordRation.pruneLimit + 10) {
            try store.execute("INSERT INTO record_allowances (key, level_ms, at_ms) VALUES ($1, 0, $2)", .text("old-\(n)"), .int(now - 200_000))
        }
        try store.execute("INSERT INTO record_allowances (key, level_ms, at_ms) VALUES ('recent', 0, $1)", .int(now - 100_000))
        let charge = RecordCharge.of(.create, from: "192.0.2.7", limits: limits)
        #expect(try store.transaction { () throws(DatabaseError) in try RecordRation.charge(charge, in: store) } == nil)
        let keys = Set(try store.query("SELECT key FROM record_allowances").map { row throws(DatabaseError) in try row.text(0) })
        #expect(keys.filter { $0.hasPrefix("old-") }.count == 10, "at most pruneLimit full rows go with one charge")
        #expect(keys.contains("recent"), "a bucket still filling stays")
        #expect(keys.isSuperset(of: charge.items.map(\.key)), "the charged buckets are written")
        #expect(try store.transaction { () throws(DatabaseError) in try RecordRation.charge(charge, in: store) } == nil)
        #expect(try store.query("SELECT 1 FROM record_allowances WHERE key LIKE 'old-%'").isEmpty, "the next charge takes the rest")
    }
}

/// The house bots' names are the service's (issue 42 item 5): a TCP account through a node with
/// no door socket cannot take them, so the door's house bot on another node finds them free.
@Suite(.serialized) struct ServiceBotNameTests {
    @Test func aTCPAccountThroughANodeWithoutADoorCannotTakeAHouseBotsName() throws {
        guard let database = try TestDatabase.make(.postgres) else { return }
        let node = try NodeServerTests.node("a", database)
        defer { node.stop() }
        let match = NodeServerTests.matchName(on: "a", among: ["a"], prefix: "bots")
        for name in ["bot-easy", "BOT-NORMAL"] {
            let refused = try #require(try ServiceRationTests.join(node, name, key: ServiceRationTests.key(9), match: match), "\(name)")
            #expect(refused.code == .nameTaken, "\(name)")
        }
        #expect(try database.database.query("SELECT 1 FROM accounts").isEmpty, "no account took a house bot's name")
    }
}
