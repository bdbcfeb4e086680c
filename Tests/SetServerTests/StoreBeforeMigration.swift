import SetDatabase
@testable import SetServer

/// An accounts file in `folder` (a SQLite file, as a server keeps it) at the schema the step
/// before `migration` left: the store an earlier version made, for a test of that step.
func accountsFile(before migration: Migration, in folder: String) throws -> SQLiteDatabase {
    let database = try SQLiteDatabase(path: folder + "/accounts.sqlite3")
    try Migrations.run(Array(SQLAccountSchema.migrations.prefix(migration.version - 1)), on: database, wallSeconds: 0)
    return database
}
