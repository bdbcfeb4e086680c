import SetDatabase
import SetRules

/// The chat allowance of an account is the service's (issue 42 item 2: "5 in any 10 seconds,
/// counted per account … across all its connections and matches"), without a store round trip
/// per line: one node at a time holds an account's budget, as a lease row in the store
/// (`ChatBudgetStore`), and counts its lines itself. A node claims the lease when the account
/// chats there and it does not hold it (one round trip), and judges the account's lines only
/// while every line it lets through will be a whole window old before its lease ends; another
/// node claims only once that lease ended, so no line of the last holder can count twice or be
/// forgotten. While another node holds it, a line is refused `chat_limited` with the wait.
/// Used only on the loop thread.
struct ChatLeases {
    /// How long a claim holds an account's budget, by the database's clock.
    static let leaseMs: Int64 = 30_000
    /// Kept back from the lease for the claim's way back and the lines' way in.
    static let marginMs: Int64 = 1_000

    /// Where this node stands with one account's budget.
    enum Standing: Equatable {
        /// Held: lines are judged here until `judgeUntil` (server clock).
        case held(judgeUntil: Instant)
        /// Another node holds it until `until` (server clock).
        case elsewhere(until: Instant)
        /// A claim is under way.
        case claiming
    }

    /// What to do with an account's line now.
    enum Decision: Equatable {
        case judgeHere
        case refuse(retryAfterMs: Int64)
        /// Ask the store (the line waits for the answer).
        case claim
        /// A claim is under way: the line waits for it.
        case wait
    }

    let windowMs: Int64
    private(set) var standings: [PlayerIdentity: Standing] = [:]

    init(windowMs: Int64) { self.windowMs = windowMs }

    /// What an account's line at `now` needs.
    mutating func decide(_ identity: PlayerIdentity, at now: Instant) -> Decision {
        switch standings[identity] {
        case .held(let until) where now < until: return .judgeHere
        case .elsewhere(let until) where now < until: return .refuse(retryAfterMs: max(1, until.milliseconds(since: now)))
        case .claiming: return .wait
        case .held, .elsewhere, nil:
            standings[identity] = .claiming
            return .claim
        }
    }

    /// The store's answer to a claim, received at `now`; nil: the store could not answer, and
    /// this node judges the account's lines alone for one window (as a single server would).
    mutating func claimed(_ identity: PlayerIdentity, _ answer: ChatBudgetStore.Claim?, at now: Instant) {
        switch answer {
        case .held(let remainingMs)?: standings[identity] = .held(judgeUntil: now.adding(remainingMs - windowMs - Self.marginMs))
        case .elsewhere(let retryAfterMs)?: standings[identity] = .elsewhere(until: now.adding(retryAfterMs))
        case nil: standings[identity] = .held(judgeUntil: now.adding(windowMs))
        }
        if standings.count > 4_096 { standings = standings.filter { _, standing in standing == .claiming || !standing.isOver(at: now) } }
    }
}

private extension ChatLeases.Standing {
    func isOver(at now: Instant) -> Bool {
        switch self {
        case .held(let until), .elsewhere(let until): now >= until
        case .claiming: false
        }
    }
}

/// The lease rows of the accounts' chat budgets, in the store the nodes share.
enum ChatBudgetStore {
    /// At most this many run-out leases are removed with each claim (a bounded cost per claim).
    static let pruneLimit = 64

    /// Migration 10: which node holds each account's chat budget, until when (database clock).
    static let migration = Migration(version: 10, summary: "chat_budgets: the node counting each account's chat lines, for every node") { _ in
        ["CREATE TABLE chat_budgets (identity TEXT PRIMARY KEY, node TEXT NOT NULL, until_ms BIGINT NOT NULL)"]
    }

    /// A claim's answer.
    enum Claim: Equatable, Sendable {
        /// This node holds the budget for `remainingMs` from now.
        case held(remainingMs: Int64)
        /// Another node holds it for `retryAfterMs` more.
        case elsewhere(retryAfterMs: Int64)
    }

    /// Claims `identity`'s budget for `node` in one transaction, judged by the database's clock:
    /// taken (or renewed) unless another node's lease still runs.
    static func claim(_ identity: String, for node: String, leaseMs: Int64, in database: Database) throws(DatabaseError) -> Claim {
        try database.transaction { () throws(DatabaseError) -> Claim in
            guard let row = try database.row("""
                SELECT (EXTRACT(EPOCH FROM clock_timestamp()) * 1000)::BIGINT, (SELECT node FROM chat_budgets WHERE identity = $1),
                    (SELECT until_ms FROM chat_budgets WHERE identity = $1)
                """, .text(identity)) else { throw DatabaseError(.unavailable, "the chat budget's read returned no row") }
            let now: Int64 = try row.int(0)
            if let holder = try row.optionalText(1), holder != node {
                let until: Int64 = try row.int(2)
                if until > now { return .elsewhere(retryAfterMs: until - now) }
            }
            try database.execute("""
                INSERT INTO chat_budgets (identity, node, until_ms) VALUES ($1, $2, $3)
                ON CONFLICT (identity) DO UPDATE SET node = excluded.node, until_ms = excluded.until_ms
                """, .text(identity), .text(node), .int(now + leaseMs))
            // A lease that ran out is the same as no row: a few go with each claim, so the table
            // holds the accounts chatting lately, not every one that ever did.
            try database.execute("""
                DELETE FROM chat_budgets WHERE identity IN (SELECT identity FROM chat_budgets WHERE until_ms <= $1 LIMIT \(pruneLimit))
                """, .int(now))
            return .held(remainingMs: leaseMs)
        }
    }
}
