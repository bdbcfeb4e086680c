import SetDatabase

/// The `silenced` list of a service of nodes, in their shared PostgreSQL store (issue 42 item 2):
/// one row per entry as the file spells it (`address 203.0.113.9`, `ssh SHA256:…`, `account HEX`),
/// and a version every change moves, so a node reads the list only when it changed. Written by
/// `setgame nodes silence|unsilence` and by a node importing its old `silenced` file once; read
/// by every node every `pollMs`. A server without `--node` keeps the file as before.
package enum SilencedStore {
    /// How often a node asks whether the list changed: a silence holds on every node within it.
    package static let pollMs: Int64 = 2_000

    /// Migration 9: the entries and their version.
    static let migration = Migration(version: 9, summary: "silenced: who the operator silenced, for every node") { _ in
        ["CREATE TABLE silenced (entry TEXT PRIMARY KEY)",
         "CREATE TABLE silenced_version (id INTEGER PRIMARY KEY, version BIGINT NOT NULL)",
         "INSERT INTO silenced_version (id, version) VALUES (1, 0)"]
    }

    /// An entry as the list keeps it: `KIND VALUE` with one space, or nil when it is none
    /// (`SilenceList` reads the same words).
    static func entry(_ text: String) -> String? {
        let words = text.split(whereSeparator: \.isWhitespace)
        guard words.count == 2, ["address", "ssh", "account"].contains(words[0]) else { return nil }
        return words.joined(separator: " ")
    }

    /// Adds (or with `adding` false, removes) `entries`, moving the version once; returns how
    /// many rows changed.
    @discardableResult
    static func change(_ entries: [String], adding: Bool, in database: Database) throws(DatabaseError) -> Int {
        try database.transaction { () throws(DatabaseError) -> Int in
            var changed = 0
            for entry in Set(entries) {
                let before = try database.row(adding ? "INSERT INTO silenced (entry) VALUES ($1) ON CONFLICT (entry) DO NOTHING RETURNING entry"
                                                     : "DELETE FROM silenced WHERE entry = $1 RETURNING entry", .text(entry))
                if before != nil { changed += 1 }
            }
            if changed > 0 { try database.execute("UPDATE silenced_version SET version = version + 1 WHERE id = 1") }
            return changed
        }
    }

    /// Every entry, in order.
    static func entries(in database: Database) throws(DatabaseError) -> [String] {
        try database.query("SELECT entry FROM silenced ORDER BY entry").map { row throws(DatabaseError) in try row.text(0) }
    }

    /// The list and its version when the version is not `known`; nil when it is (one short read).
    static func read(newerThan known: Int64?, in database: Database) throws(DatabaseError) -> (version: Int64, list: SilenceList)? {
        try database.transaction { () throws(DatabaseError) -> (version: Int64, list: SilenceList)? in
            let version: Int64 = try database.row("SELECT version FROM silenced_version WHERE id = 1")?.int(0) ?? 0
            guard version != known else { return nil }
            return (version, SilenceList(parsing: try entries(in: database).joined(separator: "\n"), from: "the store's silenced list"))
        }
    }
}
