import SetDatabase
import SetServer

/// The accounts database in a server's data folder, opened read only as an operator would open
/// it beside the running server (`sqlite3 DIR/accounts/accounts.sqlite3`).
package func dataFolderAccounts(_ data: String) throws -> SQLiteDatabase {
    try SQLiteDatabase(path: "\(data)/accounts/\(StoreLocation.sqliteFileName)", readOnly: true)
}

/// Every account row of the data folder's database (id, identity, name), in id order: what a
/// test compares before and after something that must write nothing.
package func accountRows(_ data: String) throws -> [String] {
    try dataFolderAccounts(data).query("SELECT id, identity, name FROM accounts ORDER BY id", []).map { row in
        "\(try row.int(0) as Int) \(try row.text(1)) \(try row.text(2))"
    }
}
