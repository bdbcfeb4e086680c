import SetRules

/// What one address (and its network) and one account may add to the accounts store: new accounts
/// and renames, each a record synced to disk for good. Token buckets on the server's clock, so a
/// flood of joins grows the log by a few hundred bytes a minute at most (issue 32 item 6) while a
/// household, a classroom behind one address or a player trying names is never held up.
package struct RecordLimits: Sendable, Equatable {
    /// A bucket: `burst` at once, then one more every `everyMs`.
    package struct Bucket: Sendable, Equatable {
        package var burst: Int
        package var everyMs: Int64

        package init(burst: Int, everyMs: Int64) {
            self.burst = burst
            self.everyMs = everyMs
        }
    }

    package var accountsPerAddress = Bucket(burst: 20, everyMs: 60_000)
    /// Per /24 (IPv4) or /48 (IPv6): many addresses of one network are one owner more often than not.
    package var accountsPerNetwork = Bucket(burst: 40, everyMs: 30_000)
    package var renamesPerAccount = Bucket(burst: 5, everyMs: 60_000)
    package var renamesPerAddress = Bucket(burst: 20, everyMs: 60_000)

    package init() {}

    /// No limits (benchmarks that make their accounts as fast as they can).
    package static let none: RecordLimits = {
        var limits = RecordLimits()
        let open = Bucket(burst: 1_000_000_000, everyMs: 1)
        (limits.accountsPerAddress, limits.accountsPerNetwork, limits.renamesPerAccount, limits.renamesPerAddress) = (open, open, open, open)
        return limits
    }()
}

/// A record a join would write.
enum AccountRecordKind: Equatable {
    case create
    case rename(account: Int)
}

/// The buckets of every address, network and account that wrote lately. Used only on the loop
/// thread.
struct RecordAllowance {
    let limits: RecordLimits
    private var buckets: [Key: TokenBucket] = [:]

    /// What one bucket counts.
    enum Key: Hashable {
        case accountsOfAddress(String), accountsOfNetwork(String), renamesOfAccount(Int), renamesOfAddress(String)

        /// The bucket's key in the store's `record_allowances` (`RecordRation`).
        var stored: String {
            switch self {
            case .accountsOfAddress(let address): "accounts-address:\(address)"
            case .accountsOfNetwork(let network): "accounts-network:\(network)"
            case .renamesOfAccount(let account): "renames-account:\(account)"
            case .renamesOfAddress(let address): "renames-address:\(address)"
            }
        }
    }

    /// The buckets a record of `kind` from `address` counts against, with their limits.
    static func keys(for kind: AccountRecordKind, from address: String, limits: RecordLimits) -> [(Key, RecordLimits.Bucket)] {
        switch kind {
        case .create: [(.accountsOfAddress(address), limits.accountsPerAddress),
                       (.accountsOfNetwork(network(of: address)), limits.accountsPerNetwork)]
        case .rename(let account): [(.renamesOfAccount(account), limits.renamesPerAccount), (.renamesOfAddress(address), limits.renamesPerAddress)]
        }
    }

    init(limits: RecordLimits) { self.limits = limits }

    /// Spends one of each bucket the record counts against, if every one has it (`spend` false:
    /// only says whether it would); otherwise spends nothing and gives the milliseconds until
    /// all of them will (at least 1).
    mutating func allow(_ kind: AccountRecordKind, from address: String, at now: Instant, spend: Bool = true) -> Int64? {
        let keys = Self.keys(for: kind, from: address, limits: limits)
        var filled = keys.map { key, limit in (key, (buckets[key] ?? TokenBucket(limit, at: now)).refilled(at: now)) }
        let wait = filled.map { $0.1.waitMs }.max() ?? 0
        guard wait == 0 else { return wait }
        guard spend else { return nil }
        for index in filled.indices { filled[index].1.spend() }
        for (key, bucket) in filled { buckets[key] = bucket }
        if buckets.count > 4_096 { buckets = buckets.filter { !$0.value.refilled(at: now).isFull } }
        return nil
    }

    /// The network an address is counted with: its /24 for IPv4, the first three groups (/48)
    /// of an IPv6 address as written, the whole text for anything else.
    static func network(of address: String) -> String {
        if address.contains(":") { return address.split(separator: ":", omittingEmptySubsequences: false).prefix(3).joined(separator: ":") }
        let parts = address.split(separator: ".")
        return parts.count == 4 ? parts.prefix(3).joined(separator: ".") : address
    }
}

/// One bucket, its level counted in milliseconds of refill (a token is `everyMs` of them), so
/// refills are exact in integers.
struct TokenBucket {
    let capacity: Int64
    let everyMs: Int64
    var level: Int64
    var last: Instant

    /// A full bucket.
    init(_ limit: RecordLimits.Bucket, at now: Instant) {
        everyMs = max(1, limit.everyMs)
        capacity = Int64(max(1, limit.burst)).multipliedReportingOverflow(by: everyMs).partialValue
        level = capacity
        last = now
    }

    /// A bucket as the store kept it: `level` at `last` (never above what `limit` holds now).
    init(_ limit: RecordLimits.Bucket, level: Int64, at last: Instant) {
        self.init(limit, at: last)
        self.level = min(capacity, level)
    }

    func refilled(at now: Instant) -> TokenBucket {
        var next = self
        next.level = min(capacity, level.addingReportingOverflow(max(0, now.milliseconds(since: last))).partialValue)
        next.last = max(last, now)
        return next
    }

    var isFull: Bool { level >= capacity }

    /// Milliseconds until one whole token is there (0: it is).
    var waitMs: Int64 { max(0, everyMs - level) }

    mutating func spend() { level -= everyMs }
}
