import Glibc
import SetNet
import SetWire

/// The accounts log an earlier version kept in the data folder (`accounts/accounts.jsonl`, with
/// a snapshot derived from it beside it), read only to import it (`AccountImport`) and by
/// `setgame replay` for a folder not yet imported. Nothing writes it any more.
enum AccountLogFile {
    static let fileName = "accounts.jsonl"
    /// The snapshot that spared the old server's start parsing the log: derived, never read.
    static let snapshotFileName = "accounts.snapshot"

    /// Reads the log at `path` as a start of the old server read it: every record decoded and
    /// checked in order (`AccountLogCheck`), a torn last line left out (its bytes returned), a
    /// record that does not fit passed over (`skip` says which and why), damage ending the read
    /// (thrown, after the records before it were given to `each`).
    @discardableResult
    static func read(_ path: String, skip: @escaping (Int, String) -> Void,
                     _ each: (AccountLogRecord) throws(JournalFile.Problem) -> Void) throws(JournalFile.Problem) -> Int {
        var check = AccountLogCheck()
        return try DurableLog.read(path: path, decode: { line in
            do throws(AccountLogRecord.Unreadable) { return .success(try AccountLogRecord.decode(line)) } catch {
                return .failure(DurableLog.BadLine(reason: error.reason))
            }
        }, check: { check.problem(with: $0) }, skip: skip, { _, record throws(JournalFile.Problem) in
            check.apply(record)
            try each(record)
        }).droppedTail
    }

    /// The games of the log in `accountsFolder` by commitment, up to any damage; nil without a log.
    static func games(in accountsFolder: String) -> [String: GameRecord]? {
        let path = "\(accountsFolder)/\(fileName)"
        guard access(path, R_OK) == 0 else { return nil }
        var games: [String: GameRecord] = [:]
        _ = try? read(path, skip: { _, _ in }) { record in
            if case .game(let game) = record, game.concernsAccounts { games[game.commitment] = game }
        }
        return games
    }
}

/// What the old server checked of each record as its log was read, so an import takes the
/// records that server would have: ids rising, one account per identity, a name owned once,
/// games of known accounts recorded once. Ids may skip one a damaged record took with it: that
/// record costs itself (and what only it could explain), never the accounts after it.
struct AccountLogCheck {
    /// Each account's name by id.
    private var names: [Int: String] = [:]
    private var lastID: Int?
    private var identities: Swift.Set<PlayerIdentity> = []
    /// Each name's skeleton (`PlayerName.skeleton`) and the account that first owned it.
    private var owners: [String: Int] = [:]
    private var games: Swift.Set<String> = []

    /// The account that owns `name` as the old reader judged it: a log written before look-alikes
    /// compared equal may hold two names of one skeleton, and only the same name (case folded)
    /// was refused.
    private func strictOwner(of name: String) -> Int? {
        owners[PlayerName.skeleton(name)].flatMap { names[$0]?.lowercased() == name.lowercased() ? $0 : nil }
    }

    /// Why `record` cannot follow the ones applied so far (nil: it can).
    func problem(with record: AccountLogRecord) -> String? {
        switch record {
        case .created(let id, let identity, let name, _, _):
            if let lastID, id <= lastID { return "account \(id) follows account \(lastID)" }
            if id < 0 { return "a negative account id" }
            if identities.contains(identity) { return "a second account for one identity" }
            if strictOwner(of: name) != nil { return "the name \"\(name)\" is owned already" }
        case .renamed(let id, let name):
            if names[id] == nil { return "a rename of unknown account \(id)" }
            if let owner = strictOwner(of: name), owner != id { return "the name \"\(name)\" is owned already" }
        case .game(let game):
            if game.players.contains(where: { $0.account.map { names[$0] == nil } ?? false }) { return "a game of an unknown account" }
            if game.concernsAccounts && games.contains(game.commitment) { return "game \(game.commitment) recorded twice" }
        }
        return nil
    }

    /// Takes a record `problem(with:)` accepted.
    mutating func apply(_ record: AccountLogRecord) {
        switch record {
        case .created(let id, let identity, let name, _, _):
            let key = PlayerName.skeleton(name)
            if owners[key] == nil { owners[key] = id }
            names[id] = name
            lastID = id
            identities.insert(identity)
        case .renamed(let id, let name):
            if let old = names[id].map(PlayerName.skeleton), owners[old] == id { owners[old] = nil }
            names[id] = name
            let key = PlayerName.skeleton(name)
            if owners[key] == nil { owners[key] = id }
        case .game(let game):
            if game.concernsAccounts { games.insert(game.commitment) }
        }
    }
}
