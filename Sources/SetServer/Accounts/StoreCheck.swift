import Foundation
import SetDatabase

/// What `serve --check` and the start itself find wrong with a SQLite accounts store before
/// trusting it: a file that is not a sound database, or a missing file where one must have been.
enum StoreCheck {
    /// Why a missing `path` must not be replaced by an empty store, or nil when it may: the data
    /// folder holds match journals (so a server kept accounts here) and no accounts log of an
    /// earlier version to import from. Made anew in silence, every account would be gone.
    static func missingFile(_ path: String, dataFolder: String?) -> String? {
        guard let dataFolder, access(path, F_OK) != 0, holdsJournals(dataFolder),
              access("\(dataFolder)/accounts/\(AccountLogFile.fileName)", F_OK) != 0 else { return nil }
        return "\(path) is missing, but \(dataFolder) holds match journals: its accounts would start empty. "
            + "Restore the file from a backup (stop the server, copy the backup to \(path), start it), "
            + "or start with --empty-store to accept an empty store"
    }

    /// Whether `folder` (or its `finished/`) holds a match journal.
    static func holdsJournals(_ folder: String) -> Bool {
        [folder, folder + "/finished"].contains { place in
            ((try? FileManager.default.contentsOfDirectory(atPath: place)) ?? []).contains { $0.hasSuffix(".jsonl") }
        }
    }

    /// Why the SQLite file at `path` cannot serve as the store, read only and changing nothing;
    /// nil when SQLite's `quick_check` finds it sound (or it does not exist yet).
    static func damage(_ path: String) -> String? {
        guard access(path, F_OK) == 0 else { return nil }
        // A rollback journal beside the file is an import cut short (the one transaction that
        // writes one: `AccountImport`). The next start rolls it back before it reads; a look
        // that changes nothing cannot, and SQLite will not read past it: it is not damage.
        guard access(path + "-journal", F_OK) != 0 else { return nil }
        do throws(DatabaseError) {
            let database = try SQLiteDatabase(path: path, readOnly: true)
            defer { database.close() }
            let answers = try database.query("PRAGMA quick_check", []).compactMap { row -> String? in
                if case .text(let text) = row.values.first { text } else { nil }
            }
            return answers == ["ok"] ? nil : "\(path) is damaged: \(answers.prefix(3).joined(separator: "; "))"
        } catch {
            return "\(path) cannot be read as a database: \(error.message)"
        }
    }
}

extension Server {
    /// Why the accounts store `config` names cannot be opened, for `serve --check`: a damaged
    /// SQLite file, or a missing one beside journals. A PostgreSQL store is not reached here.
    package static func storeProblem(_ config: ServerConfig) -> String? {
        guard case .sqliteFile(let path) = config.store ?? .standard(dataFolder: config.dataDirectory) else { return nil }
        if !config.accounts.allowsEmptyStore, let missing = StoreCheck.missingFile(path, dataFolder: config.dataDirectory) {
            return missing
        }
        return StoreCheck.damage(path)
    }
}
