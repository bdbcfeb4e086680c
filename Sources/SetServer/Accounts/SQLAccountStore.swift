import SetDatabase
import SetRatings
import SetRules
import SetWire

/// The accounts in a SQL database (`SetDatabase`): SQLite in the data folder by default,
/// PostgreSQL when several servers share one store. Every change is one transaction, committed
/// before the call returns. Used by one thread at a time (the server's accounts worker).
final class SQLAccountStore: AccountStore {
    let database: Database

    /// A store over `database`, its schema brought up to date; `log` is told each step an
    /// existing store is brought through, before it starts (a large one may take some seconds).
    init(database: Database, wallSeconds: Int64, log: ServerLog? = nil) throws(StoreError) {
        self.database = database
        _ = try Self.storing { () throws(DatabaseError) in
            try Migrations.run(SQLAccountSchema.migrations, on: database, wallSeconds: wallSeconds) { step in
                log?("accounts: bringing the store to schema version \(step.version) of \(SQLAccountSchema.migrations.count): \(step.summary)")
            }
        }
    }

    /// A store that only reads `database`, as it is: its schema is not brought up to date (a
    /// reader beside a running server, `setgame replay`).
    init(reading database: Database) {
        self.database = database
    }

    /// A database's error as the store says it, its kind kept: a statement the database refused
    /// (`invalidStatement`: a constraint, a missing table) is `rejected`, which trying again
    /// cannot mend; anything else means the store cannot be counted on now, and may be tried again.
    static func storing<T>(_ body: () throws(DatabaseError) -> T) throws(StoreError) -> T {
        do throws(DatabaseError) {
            return try body()
        } catch {
            switch error.code {
            case .invalidStatement: throw .rejected(error.description)
            case .unavailable, .uniqueViolation, .serializationFailure, .migration: throw .unavailable(error.description)
            }
        }
    }

    static let accountColumns = "id, identity, name, bot, created_wall"

    func account(for identity: PlayerIdentity) throws(StoreError) -> StoredAccount? {
        guard identity != .guest else { return nil }
        return try Self.storing { () throws(DatabaseError) in
            try storedAccount(database.row("SELECT \(Self.accountColumns) FROM accounts WHERE identity = $1", .text(identity.storedText)))
        }
    }

    func account(named name: String) throws(StoreError) -> StoredAccount? {
        try Self.storing { () throws(DatabaseError) in try accountRow(named: name) }
    }

    func account(id: Int) throws(StoreError) -> StoredAccount? {
        try Self.storing { () throws(DatabaseError) in try accountRow(id: id) }
    }

    func accountRow(named name: String) throws(DatabaseError) -> StoredAccount? {
        try storedAccount(database.row("SELECT \(Self.accountColumns) FROM accounts WHERE name_skeleton = $1", .text(PlayerName.skeleton(name))))
    }

    func accountRow(id: Int) throws(DatabaseError) -> StoredAccount? {
        try storedAccount(database.row("SELECT \(Self.accountColumns) FROM accounts WHERE id = $1", .int(id)))
    }

    /// An account row (`accountColumns`) with its ratings.
    private func storedAccount(_ row: Row?) throws(DatabaseError) -> StoredAccount? {
        guard let row else { return nil }
        let id: Int = try row.int(0)
        guard let identity = PlayerIdentity(storedText: try row.text(1)) else {
            throw DatabaseError(.invalidStatement, "account \(id) has an identity that is not a key or an ssh key")
        }
        return StoredAccount(id: id, identity: identity, name: try row.text(2), bot: try row.bool(3), createdWall: try row.int(4),
                             ratings: try ratings(of: id))
    }

    func ratings(of id: Int) throws(DatabaseError) -> VariantRatings {
        var ratings = VariantRatings()
        for row in try database.query("SELECT variant, rating, deviation, volatility FROM ratings WHERE account_id = $1", .int(id)) {
            guard let variant = Variant(rawValue: try row.text(0)) else { continue }
            ratings[variant] = Rating(rating: try row.double(1), deviation: try row.double(2), volatility: try row.double(3))
        }
        return ratings
    }

    func create(_ identity: PlayerIdentity, name: String, bot: Bool, wallSeconds: Int64, charging charge: RecordCharge) throws(StoreError) -> StoredAccount {
        guard identity != .guest else { throw .unavailable("a guest has no account") }
        return try Self.storing { () throws(DatabaseError) in
            try racing { () throws(DatabaseError) in
                try database.transaction { () throws(DatabaseError) -> Result<StoredAccount, StoreError> in
                    if try database.row("SELECT 1 FROM accounts WHERE identity = $1", .text(identity.storedText)) != nil {
                        return .failure(.identityTaken)
                    }
                    if try accountRow(named: name) != nil { return .failure(.nameTaken) }
                    if try accountRow(lookingLike: name) != nil { return .failure(.nameTaken) }
                    if let waitMs = try RecordRation.charge(charge, in: database) { return .failure(.overAllowance(waitMs: waitMs)) }
                    let id = try insertAccount(identity: identity, name: name, bot: bot, wallSeconds: wallSeconds)
                    return .success(StoredAccount(id: id, identity: identity, name: name, bot: bot, createdWall: wallSeconds, ratings: VariantRatings()))
                }
            }
        }.get()
    }

    func rename(_ id: Int, to name: String, charging charge: RecordCharge) throws(StoreError) -> StoredAccount {
        try Self.storing { () throws(DatabaseError) in
            try racing { () throws(DatabaseError) in
                try database.transaction { () throws(DatabaseError) -> Result<StoredAccount, StoreError> in
                    guard var account = try accountRow(id: id) else { return .failure(.unavailable("there is no account \(id)")) }
                    if let owner = try accountRow(named: name), owner.id != id { return .failure(.nameTaken) }
                    if let alike = try accountRow(lookingLike: name), alike.id != id { return .failure(.nameTaken) }
                    if let waitMs = try RecordRation.charge(charge, in: database) { return .failure(.overAllowance(waitMs: waitMs)) }
                    try renameAccount(id, to: name)
                    account.name = name
                    return .success(account)
                }
            }
        }.get()
    }

    /// Runs a change again when another server took the same id or name between this one's
    /// look and its write (a unique index refused it): the next look sees what was taken.
    func racing<T>(_ body: () throws(DatabaseError) -> T) throws(DatabaseError) -> T {
        var attempt = 0
        while true {
            attempt += 1
            do throws(DatabaseError) {
                return try body()
            } catch {
                guard error.code == .uniqueViolation, attempt < 8 else { throw error }
            }
        }
    }

    /// Inserts a new account under the id the database hands out (`DatabaseIDs`), and returns it.
    func insertAccount(identity: PlayerIdentity, name: String, bot: Bool, wallSeconds: Int64) throws(DatabaseError) -> Int {
        guard let row = try database.row("""
            INSERT INTO accounts (id, identity, name, bot, created_wall) VALUES (\(DatabaseIDs.nextID(in: "accounts", database.dialect)), $1, $2, $3, $4)
            RETURNING id
            """, .text(identity.storedText), .text(name), .bool(bot), .int(wallSeconds)) else {
            throw DatabaseError(.invalidStatement, "the insert of an account returned no id")
        }
        let id: Int = try row.int(0)
        try claimSkeleton(of: id, name)
        return id
    }

    /// Inserts an account under an id it already had (an import from the old account log).
    func insertAccount(id: Int, identity: PlayerIdentity, name: String, bot: Bool, wallSeconds: Int64) throws(DatabaseError) {
        try database.execute("INSERT INTO accounts (id, identity, name, bot, created_wall) VALUES ($1, $2, $3, $4, $5)",
                             .int(id), .text(identity.storedText), .text(name), .bool(bot), .int(wallSeconds))
        try claimSkeleton(of: id, name)
    }

    /// Gives an account a name; the name's skeleton becomes the account's only when nobody holds
    /// it (an old log's look-alike keeps its name without taking the first owner's).
    func renameAccount(_ id: Int, to name: String) throws(DatabaseError) {
        try database.execute("UPDATE accounts SET name = $2, name_skeleton = NULL WHERE id = $1", .int(id), .text(name))
        try claimSkeleton(of: id, name)
    }

    private func claimSkeleton(of id: Int, _ name: String) throws(DatabaseError) {
        let skeleton = SQLValue.text(PlayerName.skeleton(name))
        guard try database.row("SELECT 1 FROM accounts WHERE name_skeleton = $1", skeleton) == nil else { return }
        try database.execute("UPDATE accounts SET name_skeleton = $2 WHERE id = $1", .int(id), skeleton)
    }
}
