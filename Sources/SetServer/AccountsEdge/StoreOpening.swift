import SetDatabase

extension StoreLocation {
    /// The SQL accounts store at this location, its schema brought up to date: called once, at
    /// the server's start, before its loop runs.
    func openStore(wallSeconds: Int64) throws(StoreError) -> AccountStore {
        let database: Database
        do throws(DatabaseError) {
            switch self {
            case .memory: database = try SQLiteDatabase(path: nil)
            case .sqliteFile(let path): database = try SQLiteDatabase(path: path)
            case .postgres(let url): database = try PostgresDatabase(url: url)
            }
        } catch {
            throw .unavailable(error.description)
        }
        return try SQLAccountStore(database: database, wallSeconds: wallSeconds)
    }
}
