/// One connection to a SQL database. Statements are written with numbered parameters (`$1`,
/// `$2`, …) and values are bound, never spliced into the text. Used by one thread at a time.
package protocol Database: AnyObject {
    var dialect: SQLDialect { get }
    /// Runs a statement that returns no rows.
    func execute(_ sql: String, _ values: [SQLValue]) throws(DatabaseError)
    /// Runs a statement and returns its rows.
    func query(_ sql: String, _ values: [SQLValue]) throws(DatabaseError) -> [Row]
    /// Runs `body` as one transaction: all of it is committed, or (it threw) none of it.
    /// SQLite takes the write lock at the start (`BEGIN IMMEDIATE`); PostgreSQL runs it
    /// SERIALIZABLE and runs it again when another transaction changed what it read, so two
    /// servers changing one account at once both count.
    func transaction<T>(_ body: () throws(DatabaseError) -> T) throws(DatabaseError) -> T
}

extension Database {
    package func execute(_ sql: String, _ values: SQLValue...) throws(DatabaseError) { try execute(sql, values) }

    package func query(_ sql: String, _ values: SQLValue...) throws(DatabaseError) -> [Row] { try query(sql, values) }

    /// The first row, if any.
    package func row(_ sql: String, _ values: SQLValue...) throws(DatabaseError) -> Row? { try query(sql, values).first }
}

/// How often a transaction is tried when others keep changing what it read; past this the
/// database is too busy to count on, and the call reports it unavailable.
let serializationAttempts = 64
