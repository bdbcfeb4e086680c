import SetDatabase
import SetRules

/// The buckets one account record (a new account, a rename) is charged to in the store, so that
/// the ration holds for the service, not per node (issue 42 item 2): checked and spent in the
/// transaction that writes the account, judged by the database's clock. Empty: nothing charged.
struct RecordCharge: Sendable, Equatable {
    /// One bucket: its key in `record_allowances` and its limit.
    struct Item: Sendable, Equatable {
        var key: String
        var limit: RecordLimits.Bucket
    }

    var items: [Item] = []
    /// How long an untouched bucket of any kind takes to fill up again under these limits: a
    /// row last spent longer ago than this is a full bucket, the same as no row at all.
    var refillsWithinMs: Int64 = .max

    static let none = RecordCharge()

    /// What a record of `kind` from `address` costs under `limits`.
    static func of(_ kind: AccountRecordKind, from address: String, limits: RecordLimits) -> RecordCharge {
        RecordCharge(items: RecordAllowance.keys(for: kind, from: address, limits: limits).map { Item(key: $0.0.stored, limit: $0.1) },
                     refillsWithinMs: limits.longestRefillMs)
    }
}

extension RecordLimits {
    /// The longest any of these buckets takes to refill from empty.
    var longestRefillMs: Int64 {
        [accountsPerAddress, accountsPerNetwork, renamesPerAccount, renamesPerAddress].map { bucket in
            let (ms, overflow) = Int64(max(1, bucket.burst)).multipliedReportingOverflow(by: max(1, bucket.everyMs))
            return overflow ? .max : ms
        }.max() ?? .max
    }
}

/// The store's side of the account-record ration: a row per address, network or account that
/// wrote lately (its bucket's level and when), in PostgreSQL, where nodes share it. A SQLite store
/// serves one server, whose own `RecordAllowance` is the whole ration, as before.
enum RecordRation {
    /// At most this many full buckets' rows go with each charge: a bounded cost per record, and
    /// still far more than one record's few rows, so the table shrinks to what is in use.
    static let pruneLimit = 64

    /// Migration 8: the buckets, as `TokenBucket` counts them (milliseconds of refill), at a
    /// time on the database's clock (milliseconds since 1970).
    static let migration = Migration(version: 8, summary: "record_allowances: the new-account and rename ration of every address, network and account, for all nodes") { _ in
        ["CREATE TABLE record_allowances (key TEXT PRIMARY KEY, level_ms BIGINT NOT NULL, at_ms BIGINT NOT NULL)"]
    }

    /// A bucket's row: its level (milliseconds of refill) at a time on the database's clock.
    struct StoredBucket: Equatable {
        var levelMs: Int64
        var atMs: Int64
    }

    /// What charging gave: the buckets as they are to be written, or the milliseconds until
    /// every one of them has a token.
    enum Spent: Equatable {
        case spent([String: StoredBucket])
        case wait(ms: Int64)
    }

    /// Refills each stored bucket to `now` and spends one token of each, if all have one (pure).
    /// A key with no row is a full bucket.
    static func spend(_ charge: RecordCharge, stored: [String: StoredBucket], now: Int64) -> Spent {
        let clock = Instant(milliseconds: now)
        var buckets = charge.items.map { item in
            let bucket = stored[item.key].map { TokenBucket(item.limit, level: $0.levelMs, at: Instant(milliseconds: $0.atMs)) }
            return (item.key, (bucket ?? TokenBucket(item.limit, at: clock)).refilled(at: clock))
        }
        let wait = buckets.map { $0.1.waitMs }.max() ?? 0
        guard wait == 0 else { return .wait(ms: wait) }
        for index in buckets.indices { buckets[index].1.spend() }
        return .spent(Dictionary(buckets.map { ($0.0, StoredBucket(levelMs: $0.1.level, atMs: $0.1.last.milliseconds)) }, uniquingKeysWith: { $1 }))
    }

    /// Charges `charge` inside the open transaction, on PostgreSQL: one read of its rows with
    /// the database's clock, one write of them spent. Nil: spent; otherwise the wait, and nothing
    /// was written. Two nodes charging one bucket at once conflict, and the transaction is run
    /// again (SERIALIZABLE), so every token is spent once. A spending charge also removes a few
    /// rows that have filled up again (`pruneLimit`), so the table holds the addresses and
    /// accounts that wrote lately, not every one that ever did.
    static func charge(_ charge: RecordCharge, in database: Database) throws(DatabaseError) -> Int64? {
        guard database.dialect == .postgres, !charge.items.isEmpty else { return nil }
        var columns = ["(EXTRACT(EPOCH FROM clock_timestamp()) * 1000)::BIGINT"]
        for index in charge.items.indices {
            columns.append("(SELECT level_ms FROM record_allowances WHERE key = $\(index + 1))")
            columns.append("(SELECT at_ms FROM record_allowances WHERE key = $\(index + 1))")
        }
        guard let row = try database.query("SELECT " + columns.joined(separator: ", "), charge.items.map { .text($0.key) }).first else {
            throw DatabaseError(.unavailable, "the ration's read returned no row")
        }
        let now: Int64 = try row.int(0)
        var stored: [String: StoredBucket] = [:]
        for (index, item) in charge.items.enumerated() where !row.isNull(1 + 2 * index) {
            stored[item.key] = StoredBucket(levelMs: try row.int(1 + 2 * index), atMs: try row.int(2 + 2 * index))
        }
        switch spend(charge, stored: stored, now: now) {
        case .wait(let ms): return ms
        case .spent(let buckets):
            var values: [SQLValue] = []
            var tuples: [String] = []
            for (key, bucket) in buckets.sorted(by: { $0.key < $1.key }) {
                tuples.append("($\(values.count + 1), $\(values.count + 2), $\(values.count + 3))")
                values += [.text(key), .int(bucket.levelMs), .int(bucket.atMs)]
            }
            try database.execute("INSERT INTO record_allowances (key, level_ms, at_ms) VALUES \(tuples.joined(separator: ", ")) "
                                 + "ON CONFLICT (key) DO UPDATE SET level_ms = excluded.level_ms, at_ms = excluded.at_ms", values)
            try database.execute("""
                DELETE FROM record_allowances WHERE key IN (SELECT key FROM record_allowances WHERE at_ms < $1 LIMIT \(pruneLimit))
                """, .int(now.saturatingSubtracting(charge.refillsWithinMs)))
            return nil
        }
    }
}
