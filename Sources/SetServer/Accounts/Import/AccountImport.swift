import Foundation
import SetDatabase
import SetNet
import SetRatings

/// The upgrade from the accounts log: a data folder written before the database (`accounts/
/// accounts.jsonl`, and the snapshot derived from it) is read once into an empty store, every
/// account, name, rating and game as the log says it, in one transaction; then the old files
/// are renamed aside (`….imported-<wall seconds>`), kept for the operator to delete.
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
    /// nil when there was nothing to import.
    @discardableResult
    static func run(from accountsFolder: String, into store: SQLAccountStore, policy: RatingPolicy, wallSeconds: Int64,
                    log: ServerLog) throws(StoreError) -> Summary? {
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
        var summary = Summary()
        var problem: JournalFile.Problem?
        try SQLAccountStore.storing { () throws(DatabaseError) in
            try database.transaction { () throws(DatabaseError) in
                // PostgreSQL may run the transaction again: each run counts from nothing.
                (summary, problem) = (Summary(), nil)
                var failure: DatabaseError?
                do throws(JournalFile.Problem) {
                    try AccountLogFile.read(path, skip: { line, reason in
                        summary.skipped += 1
                        log("accounts import: record \(line) of \(path) is left out: \(reason)")
                    }) { record throws(JournalFile.Problem) in
                        do throws(DatabaseError) {
                            try copy(record, into: store, policy: policy, summary: &summary)
                        } catch {
                            failure = error
                            throw .unreadable("the database refused a record: \(error)")
                        }
                    }
                } catch {
                    if let failure { throw failure }
                    problem = error
                }
                // The old log's ids were written as they were: new ones follow them.
                try DatabaseIDs.catchUp("accounts", on: database)
            }
        }
        if let problem { log("accounts import: \(path) is damaged (\(problem)); the records before the damage are imported") }
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

    private static func copy(_ record: AccountLogRecord, into store: SQLAccountStore, policy: RatingPolicy, summary: inout Summary) throws(DatabaseError) {
        switch record {
        case .created(let id, let identity, let name, let bot, let wall):
            try store.insertAccount(id: id, identity: identity, name: name, bot: bot, wallSeconds: wall)
            summary.accounts += 1
        case .renamed(let id, let name):
            try store.renameAccount(id, to: name)
        case .game(let game):
            // A game of guests alone stayed in the log only: nobody can ask about it.
            guard game.concernsAccounts else { return }
            try store.insert(game, policy: policy)
            summary.games += 1
        }
    }
}
