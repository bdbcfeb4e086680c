import SetDatabase

/// The secondary indexes of the tables the import fills, set aside while its rows go in and built
/// once at the end (issue 43): an index built over a whole table sorts it once, where one kept up
/// to date takes each row into a random page. Only indexes no constraint stands on: a primary
/// key or UNIQUE stays, so a duplicate is refused as it is written. The drop is inside the
/// import's transaction, on SQLite and PostgreSQL alike: a crash midway rolls it back with the
/// rows, and no other connection ever sees the tables without their indexes.
struct ImportIndexes: Equatable {
    /// The statements that make each index again, exactly as the schema made it.
    let definitions: [String]

    /// Drops the secondary indexes of `tables` (names the import owns, never input).
    static func drop(on tables: [String], in database: Database) throws(DatabaseError) -> ImportIndexes {
        let names = tables.map { "'\($0)'" }.joined(separator: ", ")
        let found = switch database.dialect {
        // A constraint's own index (sqlite_autoindex_…) has no SQL of its own.
        case .sqlite: try database.query("SELECT name, sql FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL AND tbl_name IN (\(names)) ORDER BY name")
        case .postgres: try database.query("""
            SELECT indexname, indexdef FROM pg_indexes WHERE schemaname = current_schema() AND tablename IN (\(names))
                AND indexname NOT IN (SELECT conname FROM pg_constraint) ORDER BY indexname
            """)
        }
        var definitions: [String] = []
        for row in found {
            guard case .text(let name) = row.values[0], case .text(let definition) = row.values[1] else { continue }
            try database.execute("DROP INDEX \(name)")
            definitions.append(definition)
        }
        return ImportIndexes(definitions: definitions)
    }

    /// Builds the dropped indexes again over the rows now in their tables.
    func build(in database: Database) throws(DatabaseError) {
        for definition in definitions { try database.execute(definition) }
    }
}
