/// The statements one PostgreSQL connection has prepared, by their text: the store asks the same
/// few dozen questions again and again, so each is parsed and planned once per connection.
struct PreparedStatements {
    /// Kept at most: past this, statements run unprepared (a caller writing many different texts
    /// does not grow the server's memory without end).
    static let limit = 256

    private(set) var count = 0
    var names: [String: String] = [:]

    /// Whether `sql` is worth keeping: the statements that read and write rows; not a transaction's
    /// BEGIN or COMMIT, nor a migration's DDL, which run once.
    static func keeps(_ sql: String) -> Bool {
        let head = sql.drop(while: \.isWhitespace).prefix(7).uppercased()
        return ["SELECT", "INSERT", "UPDATE", "DELETE", "WITH"].contains { head.hasPrefix($0) }
    }

    /// A new name for `sql`, nil when it is not to be kept.
    mutating func nameForNew(_ sql: String) -> String? {
        guard count < Self.limit, Self.keeps(sql) else { return nil }
        count += 1
        return "setgame_\(count)"
    }
}
