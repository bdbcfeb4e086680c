import SetRatings
import SetRules
import SetWire

/// A temporary `AccountStore` over the hand-made engine (`Accounts`: its log, snapshot and
/// book), so the server runs through its accounts edge before `SQLAccountStore` lands; deleted
/// then. Like any store, it is used by one thread at a time (the edge's worker).
final class BookAccountStore: AccountStore {
    private let accounts: Accounts

    init(_ accounts: Accounts) { self.accounts = accounts }

    /// At a clean stop: a snapshot, when the next start would otherwise parse many records.
    func checkpoint() { accounts.checkpoint() }

    private var unavailable: StoreError { .unavailable("the accounts log cannot be written") }

    private func stored(_ account: AccountBook.Account?) -> StoredAccount? {
        account.map {
            StoredAccount(id: $0.id, identity: $0.identity, name: $0.name, bot: $0.bot, createdWall: $0.createdWall, ratings: $0.ratings)
        }
    }

    func account(for identity: PlayerIdentity) throws(StoreError) -> StoredAccount? { stored(accounts.book.account(for: identity)) }

    func account(named name: String) throws(StoreError) -> StoredAccount? { stored(accounts.book.account(named: name)) }

    func account(id: Int) throws(StoreError) -> StoredAccount? { stored(accounts.book.account(id)) }

    func create(_ identity: PlayerIdentity, name: String, bot: Bool, wallSeconds: Int64) throws(StoreError) -> StoredAccount {
        guard accounts.book.account(for: identity) == nil else { throw .identityTaken }
        guard accounts.book.account(named: name) == nil else { throw .nameTaken }
        accounts.wallSeconds = { wallSeconds }
        guard case .success(let made) = accounts.admit(.creating(identity, name: name, bot: bot)), let account = stored(made) else { throw unavailable }
        return account
    }

    func rename(_ id: Int, to name: String) throws(StoreError) -> StoredAccount {
        guard let account = accounts.book.account(id) else { throw .unavailable("no account \(id)") }
        if let owner = accounts.book.account(named: name), owner.id != id { throw .nameTaken }
        guard account.name != name else { return stored(account)! }
        guard case .success(let renamed) = accounts.admit(.renaming(account, to: name)), let stored = stored(renamed) else { throw unavailable }
        return stored
    }

    func record(_ finished: FinishedGame, journal: String, wallSeconds: Int64, policy: RatingPolicy) throws(StoreError) -> GameRecord? {
        if let game = accounts.book.game(finished.commitment) { return game }
        if accounts.unwritten.contains(where: { $0.commitment == finished.commitment }) {
            // Written as it was computed the first time.
            accounts.retry()
        } else {
            accounts.record(accounts.book.record(of: finished, wallSeconds: wallSeconds, journal: journal, policy: policy))
        }
        switch accounts.state(of: finished) {
        case .committed(let record): return record
        case .unwritten: throw unavailable
        }
    }

    func game(commitment: String) throws(StoreError) -> GameRecord? { accounts.book.game(commitment) }

    func profile(_ name: String) throws(StoreError) -> Result<AccountInfo, WireError> { AccountReplies.profile(name, in: accounts.book) }

    func history(_ name: String, after: String?, limit: Int, id: JSONValue?) throws(StoreError) -> Result<[UInt8], WireError> {
        AccountReplies.history(name, after: after, limit: limit, id: id, in: accounts.book)
    }

    func crosstable(_ name: String, _ other: String) throws(StoreError) -> Result<AccountInfo, WireError> {
        AccountReplies.crosstable(name, other, in: accounts.book)
    }

    func leaderboard(_ variant: Variant, after: String?, limit: Int) throws(StoreError) -> Result<AccountInfo, WireError> {
        accounts.leaderboard(variant, after: after, limit: limit)
    }
}

extension AccountsEdge {
    /// At a clean stop, once the worker has ended: the engine's snapshot (`Accounts.checkpoint`).
    func checkpoint() {
        try? synchronously { store throws(StoreError) in (store as? BookAccountStore)?.checkpoint() }
    }
}
