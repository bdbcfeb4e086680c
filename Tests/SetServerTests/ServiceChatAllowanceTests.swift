import Foundation
import SetDatabase
@testable import SetServer
import SetRules
import SetTestSupport
import SetWire
import Testing

/// An account's chat allowance is the service's (issue 42 item 2): five lines in 10 s through
/// node a, and the sixth through node b is refused; one node holds the account's budget at a
/// time (`ChatLeases`), claimed in the store once, not per line. Real nodes on one PostgreSQL.
@Suite(.serialized) struct ServiceChatAllowanceTests {
    typealias Nodes = NodeServerTests
    static let annKey = String(repeating: "a1", count: 32)

    /// `name` (with `key`) and a guest in a new duel on `node`; the first is returned.
    static func duel(on node: TestServer, among names: [String], node name: String, as player: String, key: String?) throws -> (TestClient, TestClient) {
        let match = Nodes.matchName(on: name, among: names, prefix: "chat-\(name)-")
        let first = try Nodes.greeted(node), second = try Nodes.greeted(node)
        var request = JoinRequest(name: player, match: match)
        request.account = key
        first.send(.join(request))
        _ = try Nodes.joined(first)
        second.send(.join(JoinRequest(name: "g\(name)", match: match)))
        _ = try Nodes.joined(second)
        return (first, second)
    }

    @Test func theSixthLineIn10SecondsThroughBIsRefusedAfterFiveThroughA() throws {
        guard let database = try TestDatabase.make(.postgres) else { return }
        let a = try Nodes.node("a", database), b = try Nodes.node("b", database)
        defer { a.stop(); b.stop() }
        let (annOnA, bob) = try Self.duel(on: a, among: ["a", "b"], node: "a", as: "ann", key: Self.annKey)
        let (annOnB, cy) = try Self.duel(on: b, among: ["a", "b"], node: "b", as: "ann", key: Self.annKey)
        for n in 1...5 { #expect(try annOnA.say("line \(n)") == nil, "line \(n) through a") }
        let refused = try #require(try annOnB.say("line 6"), "the sixth line, through b")
        #expect(refused.code == .chatLimited && (refused.details["retryAfterMs"]?.intValue ?? 0) > 0)
        // One claim per node, not one store row write per line.
        #expect(try database.database.query("SELECT node FROM chat_budgets").map { row throws(DatabaseError) in try row.text(0) } == ["a"])
        // A guest's chat is its address's on its node: untouched by ann's budget.
        #expect(try cy.say("hello") == nil)
        withExtendedLifetime((bob, cy)) {}
    }

    /// Leases that ran out go as budgets are claimed: the table holds the accounts chatting
    /// lately, not every account that ever said a line.
    @Test func aClaimRemovesLeasesThatRanOut() throws {
        guard let database = try TestDatabase.make(.postgres) else { return }
        let store = database.database
        for sql in ChatBudgetStore.migration.statements(.postgres) { try store.execute(sql) }
        let now = try store.query("SELECT (EXTRACT(EPOCH FROM clock_timestamp()) * 1000)::BIGINT")[0].int(0) as Int64
        for n in 0..<(ChatBudgetStore.pruneLimit + 5) {
            try store.execute("INSERT INTO chat_budgets (identity, node, until_ms) VALUES ($1, 'b', $2)", .text("gone-\(n)"), .int(now - 1_000))
        }
        try store.execute("INSERT INTO chat_budgets (identity, node, until_ms) VALUES ('live', 'b', $1)", .int(now + 60_000))
        #expect(try ChatBudgetStore.claim("ann", for: "a", leaseMs: ChatLeases.leaseMs, in: store) == .held(remainingMs: ChatLeases.leaseMs))
        let left = Set(try store.query("SELECT identity FROM chat_budgets").map { row throws(DatabaseError) in try row.text(0) })
        #expect(left.filter { $0.hasPrefix("gone-") }.count == 5, "at most pruneLimit run-out leases go with one claim")
        #expect(left.isSuperset(of: ["live", "ann"]), "a running lease stays, and the claim is written")
        #expect(try ChatBudgetStore.claim("ann", for: "a", leaseMs: ChatLeases.leaseMs, in: store) == .held(remainingMs: ChatLeases.leaseMs))
        #expect(try store.query("SELECT 1 FROM chat_budgets WHERE identity LIKE 'gone-%'").isEmpty, "the next claim takes the rest")
    }

    @Test func aNodeJudgesOnlyWhileItsLeaseLeavesAWholeWindowAndClaimsAgainAfter() {
        var leases = ChatLeases(windowMs: 10_000)
        let ann = PlayerIdentity.accountKey(digest: "aa"), start = Instant(milliseconds: 1_000)
        #expect(leases.decide(ann, at: start) == .claim)
        #expect(leases.decide(ann, at: start) == .wait, "one claim at a time")
        leases.claimed(ann, .held(remainingMs: ChatLeases.leaseMs), at: start)
        #expect(leases.decide(ann, at: start.adding(18_999)) == .judgeHere)
        #expect(leases.decide(ann, at: start.adding(19_000)) == .claim, "30 s lease, less a window and the margin")
        leases.claimed(ann, .elsewhere(retryAfterMs: 4_000), at: start.adding(19_000))
        #expect(leases.decide(ann, at: start.adding(20_000)) == .refuse(retryAfterMs: 3_000))
        #expect(leases.decide(ann, at: start.adding(23_000)) == .claim)
        leases.claimed(ann, nil, at: start.adding(23_000))
        #expect(leases.decide(ann, at: start.adding(32_999)) == .judgeHere, "a store that cannot answer: alone for a window")
    }
}
