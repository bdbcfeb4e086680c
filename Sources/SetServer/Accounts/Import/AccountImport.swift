import Foundation
import SetDatabase
import SetNet
import SetRatings

/// The upgrade from the accounts log: a data folder written before the database (`accounts/
/// accounts.jsonl`, and the snapshot derived from it) is read once into an empty store, every
/// account, name, rating and game as the log says it, in one transaction; then the old files
/// are renamed aside (`….imported-<wall seconds>`), kept for the operator to delete.
///
/// Built for a million games (issue 43): game lines are read straight from their bytes
/// (`AccountLogGameLine`); each game's own rows are written a batch at a time, many to a
/// statement (`ImportTally`, `ImportWriter`); what games move (counts, standings, set times) is
/// summed in memory and written once at the end; SQLite keeps the transaction in a large page
/// cache and writes it once, through a rollback journal rather than the WAL; the log says how
/// far it is (`ImportProgress`) and, while one long statement runs, which step it is
/// (`ImportWatch`), so a line comes at least every 5 s. A crash midway commits
/// nothing: the next start finds the store empty and the log in place, and imports it again.
///
/// The log alone is complete: the snapshot only spared a start parsing it, so it is not read.
/// The log is read as a start of the old server read it (`AccountLogFile.read`): a torn last
/// line is left out, a record the old server refused is passed over, damage ends the read, and
/// the log says each.
enum AccountImport {
    struct Summary: Equatable {
        var accounts = 0
        var games = 0
        var skipped = 0
    }

    /// Imports the log in `accountsFolder` into `store` if there is one and the store is empty;
    /// nil when there was nothing to import. `pause` paces the watch's thread (nil: no watch);
    /// `cacheKiB` is SQLite's page cache for the import (a test makes it small, so pages spill).
    @discardableResult
    static func run(from accountsFolder: String, into store: SQLAccountStore, policy: RatingPolicy, wallSeconds: Int64,
                    log: ServerLog, clock: TimeSource = MonotonicTime(), batchGames: Int = batchGames,
                    maxParameters: Int = ImportWriter.maxParameters, cacheKiB: Int = importCacheKiB,
                    pause: (any ImportWatch.Pause)? = ImportWatch.TimedPause()) throws(StoreError) -> Summary? {
        let path = "\(accountsFolder)/\(AccountLogFile.fileName)"
        guard access(path, F_OK) == 0 else { return nil }
        let database = store.database
        let empty = try SQLAccountStore.storing { () throws(DatabaseError) in
            try database.row("SELECT (SELECT COUNT(*) FROM accounts) + (SELECT COUNT(*) FROM games)")?.int(0) as Int? == 0
        }
        guard empty else {
            log("accounts: \(path) is not imported: the database already holds accounts (move the file away to silence this)")
            return nil
        }
        log("accounts: importing \(path), which an earlier version wrote, into the database (once)")
        // From here to the end, a line at least every few seconds however long one step takes.
        let watch = pause.map { ImportWatch(step: "counting the games in the log", clock: clock, log: log, pause: $0) }
        defer { watch?.stop() }
        let say = { (line: String) in if let watch { watch.say(line) } else { log(line) } }
        let begin = { (step: String) in watch?.begin(step) }
        var summary = Summary()
        var problem: JournalFile.Problem?
        var tornBytes = 0
        let total = ImportProgress.games(in: path)
        try SQLAccountStore.storing { () throws(DatabaseError) in
            try withImportConnection(on: database, cacheKiB: cacheKiB) { () throws(DatabaseError) in
                try database.transaction { () throws(DatabaseError) in
                    // PostgreSQL may run the transaction again: each run counts from nothing.
                    (summary, problem, tornBytes) = (Summary(), nil, 0)
                    begin("reading the log and writing its games")
                    let setAside = try ImportSetAside.drop(on: AccountCopy.tables, in: database)
                    var progress = ImportProgress(total: total, at: clock.now())
                    var tally = ImportTally(policy: policy)
                    var writer = ImportWriter(database: database, maxParameters: maxParameters)
                    let report = { if let line = progress.games(summary.games, at: clock.now()) { say(line) } }
                    writer.tick = report
                    var failure: DatabaseError?
                    do throws(JournalFile.Problem) {
                        tornBytes = try AccountLogFile.read(path, skip: { line, reason in
                            summary.skipped += 1
                            say("accounts import: record \(line) of \(path) is left out: \(reason)")
                        }) { record throws(JournalFile.Problem) in
                            tally.take(record)
                            if case .created = record { summary.accounts += 1 }
                            guard tally.pending.games.count >= batchGames else { return }
                            do throws(DatabaseError) {
                                try writer.write(tally.takeRows())
                                summary.games = tally.games
                                report()
                            } catch {
                                failure = error
                                throw .unreadable("the database refused a record: \(error)")
                            }
                        }
                    } catch {
                        if let failure { throw failure }
                        problem = error
                    }
                    try writer.write(tally.takeRows())
                    summary.games = tally.games
                    var accountsDone = 0
                    let accountCount = tally.accounts.count
                    begin("writing the accounts' totals")
                    writer.tick = { if let line = progress.totals(accountsDone, of: accountCount, at: clock.now()) { say(line) } }
                    try writeTotals(of: tally, with: &writer) { accountsDone = $0 }
                    begin("moving the ids on past the log's")
                    // The old log's ids were written as they were: new ones follow them.
                    try DatabaseIDs.catchUp("accounts", on: database)
                    try DatabaseIDs.catchUp("games", on: database)
                    // One statement each, some seconds at a million games: a line before each.
                    try setAside.restore(in: database) { number in
                        let step = "making the indexes and foreign keys again, \(number) of \(setAside.restore.count)"
                        begin(step)
                        say("accounts import: every row is written; \(step)")
                    }
                    // The commit writes the whole transaction out at once: the watch speaks while it runs.
                    begin("committing")
                    say("accounts import: every row is written; committing")
                }
            }
        }
        watch?.stop()
        if let problem { log("accounts import: \(path) is damaged (\(problem)); the records before the damage are imported") }
        if tornBytes > 0 {
            log("accounts import: the last line of \(path) is torn (\(tornBytes) bytes without an end, as a crash mid-write leaves it) and is left out")
        }
        let aside = [AccountLogFile.fileName, AccountLogFile.snapshotFileName].compactMap { name -> String? in
            let file = "\(accountsFolder)/\(name)"
            guard access(file, F_OK) == 0 else { return nil }
            let target = DamagedFiles.unused("\(file).imported-\(wallSeconds)", "")
            return rename(file, target) == 0 ? target : nil
        }
        log("accounts: imported \(summary.accounts) accounts and \(summary.games) games from \(path) into the database; "
            + "the old files are renamed aside as \(aside.joined(separator: " and ")) (delete them once the database is trusted)")
        return summary
    }

    /// Games tallied before their rows are written: a few seconds' work, so a progress line
    /// never waits long and PostgreSQL's statements stay well inside its statement timeout.
    static let batchGames = 5_000

    /// Writes what every game moved, once: each account's name and counts, each rating with its
    /// standing, each set-time count.
    private static func writeTotals(of tally: ImportTally, with writer: inout ImportWriter,
                                    done: (Int) -> Void) throws(DatabaseError) {
        try writer.updateAccounts(tally.accountTotals())
        try writer.insert(tally.ratingRows())
        let ids = tally.accountIDs
        var rows = ImportRows(ImportWriter.setTimes)
        for (index, id) in ids.enumerated() {
            tally.appendSetTimeRows(of: id, to: &rows)
            guard rows.count >= 10_000 || index == ids.count - 1 else { continue }
            try writer.insert(rows)
            rows.removeAll()
            done(index + 1)
        }
    }

    /// Runs `body` with SQLite's connection set for the import, and as it was again after: the
    /// file's journal a rollback journal, so that the import's pages are written once, not into
    /// the WAL and again by its checkpoint (`SQLiteDatabase.withRollbackJournal`; the import runs
    /// before `SQLAccountStore.open` opens the file's other connections); foreign keys off, each
    /// row's references checked once at the end (`ImportSetAside.checkReferences`) rather than
    /// one lookup each as it goes in; a page cache of `cacheKiB`, so the transaction stays in
    /// memory rather than spilling into the file and reading it back. A kill midway still
    /// commits nothing: the next start rolls the journal back and imports again.
    private static func withImportConnection(on database: Database, cacheKiB: Int,
                                             _ body: () throws(DatabaseError) -> Void) throws(DatabaseError) {
        guard let sqlite = database as? SQLiteDatabase, let kept = try sqlite.row("PRAGMA cache_size")?.values.first else { return try body() }
        try sqlite.execute("PRAGMA cache_size = -\(cacheKiB)")
        defer { try? sqlite.execute("PRAGMA cache_size = \(kept)") }
        try sqlite.execute("PRAGMA foreign_keys=OFF")
        do {
            _ = try sqlite.withRollbackJournal(body)
        } catch {
            try? sqlite.execute("PRAGMA foreign_keys=ON")
            throw error
        }
        // The connection is the server's own after the import: its keys are on again, or the start fails.
        try sqlite.execute("PRAGMA foreign_keys=ON")
    }

    /// 1 GiB, taken only as the import fills it: a million games' hot pages (the indexes that
    /// take rows out of order) fit in it.
    static let importCacheKiB = 1 << 20
}
