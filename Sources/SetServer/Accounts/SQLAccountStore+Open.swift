import Foundation
import SetDatabase
import SetRatings

extension SQLAccountStore {
    /// Opens the store at `location`, brings its schema up to date, and fills it when it is empty
    /// from what the data folder holds: the SQLite file of a server moving to PostgreSQL
    /// (`AccountCopy`), the accounts log of an earlier version (`AccountImport`).
    /// `dataFolder` is the server's `--data` folder, nil for none.
    /// `allowingEmpty` (`--empty-store`) lets a missing SQLite file be made anew beside journals.
    static func open(_ location: StoreLocation, dataFolder: String?, policy: RatingPolicy, wallSeconds: Int64,
                     log: ServerLog, allowingEmpty: Bool = false) throws(StoreError) -> SQLAccountStore {
        if case .sqliteFile(let path) = location, let missing = StoreCheck.missingFile(path, dataFolder: dataFolder) {
            guard allowingEmpty else { throw .unavailable(missing) }
            log("\(path) is missing beside this folder's journals: starting an EMPTY accounts store, as --empty-store asks; "
                + "every account, rating and finished game it held is gone from this server")
        }
        let database: Database = try storing { () throws(DatabaseError) -> Database in
            switch location {
            case .memory: return try SQLiteDatabase(path: nil)
            case .sqliteFile(let path):
                try prepareFile(path)
                return try SQLiteDatabase(path: path)
            case .postgres(let url): return try PostgresDatabase(url: url)
            }
        }
        let store = try SQLAccountStore(database: database, wallSeconds: wallSeconds, log: log)
        if let dataFolder {
            if case .postgres = location {
                try AccountCopy.run(from: StoreLocation.standard(dataFolder: dataFolder).description, into: store, wallSeconds: wallSeconds, log: log)
            }
            try AccountImport.run(from: dataFolder + "/accounts", into: store, policy: policy, wallSeconds: wallSeconds, log: log)
        }
        return store
    }

    /// Another connection to the store at `location`, already opened and brought up to date by
    /// `open`: the records lane's, or (`readOnly`, which SQLite opens read-only) the questions
    /// lane's (`AccountsEdge`). Nil for a store in memory, which has one.
    static func another(_ location: StoreLocation, readOnly: Bool = false) throws(StoreError) -> SQLAccountStore? {
        let database: Database? = try storing { () throws(DatabaseError) -> Database? in
            switch location {
            case .memory: nil
            case .sqliteFile(let path): try SQLiteDatabase(path: path, readOnly: readOnly)
            case .postgres(let url): try PostgresDatabase(url: url)
            }
        }
        return database.map { SQLAccountStore(reading: $0) }
    }

    /// Makes the file's folder, and the file itself readable by its owner alone (SQLite would
    /// make it as the umask says, and its WAL takes the file's mode): accounts hold identities.
    private static func prepareFile(_ path: String) throws(DatabaseError) {
        let folder = (path as NSString).deletingLastPathComponent
        if !folder.isEmpty {
            do {
                try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            } catch {
                throw DatabaseError(.unavailable, "cannot make \(folder): \(error)")
            }
        }
        let fd = Glibc.open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard fd >= 0 else { throw DatabaseError(.unavailable, "cannot open \(path): \(String(cString: strerror(errno)))") }
        Glibc.close(fd)
    }

    /// Folds the WAL into the file and closes it (`SQLiteDatabase.close`); for a server's stop,
    /// once nothing calls the store any more.
    func close() { (database as? SQLiteDatabase)?.close() }
}
