import Foundation
import SetDatabase
@testable import SetServer
import SetTestSupport

/// A SQL accounts store on a test database of its own, kept open as long as the test holds it.
final class StoreUnderTest {
    let database: TestDatabase
    let store: SQLAccountStore

    /// Nil when the kind is not to be had here (PostgreSQL not installed and not required).
    static func make(_ kind: TestStoreKind) throws -> StoreUnderTest? {
        guard let database = try TestDatabase.make(kind) else { return nil }
        return StoreUnderTest(database: database, store: try SQLAccountStore(database: database.database, wallSeconds: 1))
    }

    private init(database: TestDatabase, store: SQLAccountStore) {
        (self.database, self.store) = (database, store)
    }

    /// A second connection to the same database, as another server sharing it would have.
    func secondConnection() throws -> Database {
        switch database.kind {
        case .sqlite: try SQLiteDatabase(path: database.location)
        case .postgres: try PostgresDatabase(url: database.location)
        }
    }
}
