import CSQLite

extension SQLiteDatabase {
    /// Runs `body` with the file's journal a rollback journal (`journal_mode=DELETE`), then WAL
    /// again, for one large transaction written while no other connection has the file open
    /// (the accounts import, before the server opens its other connections). In WAL mode each
    /// page of it is written twice, into the WAL at the commit and again into the file by the
    /// checkpoint; a rollback journal holds only the pages the file had before (few, in a new
    /// store), so the rows are written once. A crash midway leaves that journal beside the file,
    /// and the next connection to open the file rolls the transaction back from it before it reads
    /// anything, as SQLite does for every rollback journal: all of it or nothing, as in WAL mode.
    ///
    /// When the mode cannot change (another connection has the file open: SQLite refuses, as it
    /// must) `body` runs in WAL mode as it would have. A file in memory has no journal to change.
    /// Returns `body`'s result and whether it ran with the rollback journal.
    package func withRollbackJournal<T>(_ body: () throws(DatabaseError) -> T) throws(DatabaseError) -> (result: T, rollbackJournal: Bool) {
        guard path != nil, (try? journalMode()) == "wal", (try? setJournalMode("delete")) == "delete" else { return (try body(), false) }
        let result: T
        do {
            result = try body()
        } catch {
            // Back to WAL for whatever comes after; if even that fails, the next open sets it.
            _ = try? setJournalMode("wal")
            throw error
        }
        guard try setJournalMode("wal") == "wal" else {
            throw DatabaseError(.unavailable, "\(path ?? ""): cannot go back to WAL mode after a rollback journal")
        }
        return (result, true)
    }

    /// The file's journal mode as SQLite names it (`wal`, `delete`, `memory` for a file in memory).
    package func journalMode() throws(DatabaseError) -> String {
        try query("PRAGMA journal_mode", []).first?.text(0) ?? ""
    }

    /// Asks for journal mode `mode` and returns the mode SQLite then reports.
    private func setJournalMode(_ mode: String) throws(DatabaseError) -> String {
        try query("PRAGMA journal_mode=\(mode)", []).first?.text(0) ?? ""
    }
}
