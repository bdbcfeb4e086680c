import Foundation
import SetDatabase
import SetServer
import SetTestSupport
import Testing

/// Where a test's server keeps its accounts: the SQLite file its data folder holds by default,
/// or a PostgreSQL database of the test's own (`--store`), kept as long as the test holds this.
struct TestAccounts {
    let kind: TestStoreKind
    private let database: TestDatabase?

    /// Nil when PostgreSQL is not to be had here (and not required).
    static func make(_ kind: TestStoreKind) throws -> TestAccounts? {
        switch kind {
        case .sqlite: return TestAccounts(kind: kind, database: nil)
        case .postgres: return try TestDatabase.make(.postgres).map { TestAccounts(kind: kind, database: $0) }
        }
    }

    /// What the server is told: nothing for SQLite (its default), the address for PostgreSQL.
    var store: StoreLocation? { database.map { .postgres($0.location) } }

    /// Each game the database holds, as whether it was rated, read as an operator would.
    func games(data: String) throws -> [Bool] {
        let reader: Database = try database?.database ?? SQLiteDatabase(path: "\(data)/accounts/\(StoreLocation.sqliteFileName)", readOnly: true)
        return try reader.query("SELECT rated FROM games ORDER BY id", []).map { try $0.bool(0) }
    }
}

extension AccountTests {
    func server(data: String? = nil, accounts: TestAccounts, storeFaults: StoreFaults? = nil) throws -> TestServer {
        try TestServer {
            $0.dataDirectory = data
            $0.store = accounts.store
            $0.storeFaults = storeFaults
        }
    }
}
