import Foundation
import SetNet
import SetRatings
import SetRules
import SetWire

/// Where a finished game's accounts record stands: its `game_over` is told only once committed.
enum RecordState {
    /// Not on disk yet (a full disk): it is tried again.
    case unwritten
    /// On disk; nil: a record the book does not keep (a game of guests alone, which moved no rating).
    case committed(GameRecord?)
}

/// The server's accounts: who is who, names, ratings, finished games. Every change is written
/// to the accounts log (and synced) before it is applied and before anyone hears of it; without
/// a data folder they live in memory only. Used only on the loop thread.
final class Accounts {
    private(set) var book: AccountBook
    private let file: AccountLog?
    private let log: ServerLog
    /// Wall-clock seconds, for history's dates; tests fix it.
    var wallSeconds: () -> Int64 = { Int64(Date().timeIntervalSince1970) }
    /// Games whose record could not be written yet (a full disk): written at the next `retry`.
    private(set) var unwritten: [GameRecord] = []
    /// The names kept for what the server hands out; the server says whether it has a door.
    var reservedNames = ReservedNames(houseBots: false)
    /// Who is rated against whom and who is listed on a leaderboard.
    let policy: RatingPolicy
    /// Each variant's leaderboard, kept in order as rated games land.
    private var rankings: Rankings
    /// Records the next start would have to parse (none snapshotted since), how many make
    /// writing a snapshot worth it at a start or a stop, and how many make a running server
    /// write one in the background: a start after a crash then parses at most 49,999 records
    /// (1.1 s in all at 1M games, the snapshot read and a new one written included).
    private(set) var unsnapshotted = 0
    private let snapshotAfter: Int
    private let snapshotEvery: Int
    private var snapshots: SnapshotWriter?

    /// Reads the log in `directory` (none: memory only), from its snapshot when one fits. A torn
    /// last line is dropped; a damaged log is set aside in `damaged/` and written anew from the
    /// records before the damage, so one bad line costs what follows it, not every account.
    /// Once `snapshotAfter` records or more had to be parsed, a new snapshot is written.
    init(directory: JournalDirectory?, faults: JournalFaults?, log: ServerLog, snapshotAfter: Int = 10_000,
         snapshotEvery: Int = 50_000, policy: RatingPolicy = .standard) throws(SystemCallError) {
        self.log = log
        self.policy = policy
        rankings = Rankings(policy: policy)
        self.snapshotAfter = snapshotAfter
        self.snapshotEvery = max(snapshotAfter, snapshotEvery)
        guard let directory else {
            book = AccountBook()
            file = nil
            return
        }
        let path = "\(directory.accountsPath)/\(AccountLog.fileName)"
        let snapshot = "\(directory.accountsPath)/\(AccountSnapshot.fileName)"
        let read = AccountLog.read(path, snapshot: snapshot)
        book = read.book
        if read.droppedTail > 0 { log("\(AccountLog.fileName): dropped a torn last line (\(read.droppedTail) bytes)") }
        if let problem = read.problem {
            let aside = directory.setAside(path, saying: "\(AccountLog.fileName) is damaged (\(problem)); the \(book.accounts.count) accounts and \(book.games.count) games before the damage are kept")
            if case .corrupt(let line, _) = problem, let aside, !AccountLog.keep(lines: line - 1, of: aside, at: path) {
                log("cannot write the records before the damage to \(path): they are only in \(aside)")
            }
            unlink(snapshot)
            unsnapshotted = snapshotAfter
        } else if !read.skipped.isEmpty {
            let reasons = read.skipped.prefix(3).map { "record \($0.line): \($0.reason)" }.joined(separator: "; ")
            let aside = directory.setAside(path, saying: "\(AccountLog.fileName) holds \(read.skipped.count) bad record(s) (\(reasons)); they are left out, every other record is kept")
            if let aside, !AccountLog.keep(droppingLines: Swift.Set(read.skipped.map(\.line)), of: aside, at: path) {
                log("cannot write the good records to \(path): they are only in \(aside)")
            }
            unlink(snapshot)
            unsnapshotted = snapshotAfter
        }
        let snapshots = SnapshotWriter(path: snapshot, log: log)
        if read.problem == nil, read.skipped.isEmpty, read.parsed >= snapshotAfter, !snapshots.write(book, offset: read.end, logPath: path) {
            log("cannot write \(snapshot): the next start reads the whole log")
        } else if read.problem == nil, read.skipped.isEmpty, read.parsed < snapshotAfter {
            unsnapshotted = read.parsed
        }
        self.snapshots = snapshots
        // The parse and the arrays it outgrew leave freed memory among what the book keeps.
        FreeMemory.release()
        file = try AccountLog(path: path, faults: faults)
        log("accounts: \(book.accounts.count) accounts, \(book.games.count) games\(read.fromSnapshot ? " (from the snapshot and \(read.parsed) records after it)" : "")")
    }

    /// At a clean stop: writes a snapshot when the next start would otherwise parse
    /// `snapshotAfter` records or more, so a restart after a busy week is as quick as any.
    func checkpoint() {
        guard let snapshots else { return }
        guard unsnapshotted >= snapshotAfter, let file else { return snapshots.finish() }
        if snapshots.write(book, offset: Int(file.length), logPath: file.path) {
            unsnapshotted = 0
        } else {
            log("cannot write \(snapshots.path): the next start reads the log after the last snapshot")
        }
    }

    /// Returns once no snapshot is being written (tests).
    func finishSnapshots() { snapshots?.finish() }

    /// Writes `record` first, then applies it; false (nothing applied) if it could not be written.
    private func commit(_ record: AccountRecord) -> Bool {
        let bytes = record.encoded()
        if let refusal = record.refusal(of: bytes) ?? book.problem(with: record) {
            log("not writing a record the next start would refuse (\(refusal)): \(String(decoding: bytes.prefix(200), as: UTF8.self))")
            return false
        }
        if let file, !file.append(encoded: bytes) { return false }
        book.apply(record)
        unsnapshotted += 1
        if unsnapshotted >= snapshotEvery, let file, let snapshots,
           snapshots.startWriting(book.snapshotContents, offset: Int(file.length), logPath: file.path) {
            unsnapshotted = 0
        }
        return true
    }

    /// What seating a player under `name` would do to the accounts, decided with nothing written:
    /// the account found by identity, made on first use, renamed when it asks for another name.
    /// A name is its first owner's (compared by skeleton, `PlayerName.skeleton`); asking for
    /// another account's name, even as a guest, or for a name the server keeps for what it
    /// hands out (`ReservedNames`) is refused with a free one to take instead. Nobody takes a
    /// seat under a name someone else sits under in that match (`sitting`: a guest, or another
    /// account since renamed), so no match shows two players under one name.
    /// `limit` says why the record it would write may not be written now (`RecordAllowance`).
    func admission(_ name: String, identity: PlayerIdentity, claimant: NameClaimant = .client, bot: Bool,
                   sitting: (String) -> SeatHolder? = { _ in nil },
                   limit: (AccountRecordKind) -> WireError? = { _ in nil }) -> Result<AccountAdmission, WireError> {
        guard reservedNames.allows(name, to: claimant) else {
            return .failure(nameTaken(name, claimant: claimant, sitting: sitting, because: reservedNames.reason(name)))
        }
        if let owner = book.account(named: name), owner.identity != identity {
            return .failure(nameTaken(name, claimant: claimant, sitting: sitting, because: "belongs to another player here"))
        }
        let account = identity == .guest ? nil : book.account(for: identity)
        if let holder = sitting(name), holder != account.map({ .account(id: $0.id) }) {
            let whose = holder == .guest ? "is a guest's in that match" : "is another player's in that match"
            return .failure(nameTaken(name, claimant: claimant, sitting: sitting, because: whose))
        }
        guard identity != .guest else { return .success(.guest) }
        guard let account else {
            if let refusal = limit(.create) { return .failure(refusal) }
            return .success(.creating(identity, name: name, bot: bot))
        }
        guard account.name != name else { return .success(.existing(account)) }
        if let refusal = limit(.rename(account: account.id)) { return .failure(refusal) }
        return .success(.renaming(account, to: name))
    }

    /// Carries out an admission once its seat is sure: writes the new account or the new name
    /// (synced) and applies it. Only this writes, so a refused join writes nothing.
    func admit(_ admission: AccountAdmission) -> Result<AccountBook.Account?, WireError> {
        switch admission {
        case .guest: return .success(nil)
        case .existing(let account): return .success(account)
        case .renaming(let account, let name):
            guard commit(.renamed(id: account.id, name: name)) else { return .failure(unwritable) }
            return .success(book.account(account.id))
        case .creating(let identity, let name, let bot):
            let id = book.nextID
            guard commit(.created(id: id, identity: identity, name: name, bot: bot, wallSeconds: wallSeconds())) else { return .failure(unwritable) }
            return .success(book.account(id))
        }
    }

    /// An admission carried out at once (tests, and callers with no seat to wait for).
    func seat(_ name: String, identity: PlayerIdentity, claimant: NameClaimant = .client, bot: Bool,
              sitting: (String) -> SeatHolder? = { _ in nil }) -> Result<AccountBook.Account?, WireError> {
        admission(name, identity: identity, claimant: claimant, bot: bot, sitting: sitting).flatMap(admit)
    }

    /// Why `claimant` may not watch under `name`, if it may not: a spectator's name is lent, but
    /// not one the server hands out (its chat line would pass for the door's guest, key or bot).
    func watchingRefusal(_ name: String, claimant: NameClaimant) -> WireError? {
        guard !reservedNames.allows(name, to: claimant) else { return nil }
        return nameTaken(name, claimant: claimant, sitting: { _ in nil }, because: reservedNames.reason(name))
    }

    private var unwritable: WireError {
        WireError(.journalFailed, "The server cannot write its accounts (\(file?.failure ?? "write failed")); join as a guest or try later.")
    }

    private func nameTaken(_ name: String, claimant: NameClaimant, sitting: (String) -> SeatHolder?, because why: String) -> WireError {
        let suggestion = freeName(like: name, for: claimant, sitting: sitting)
        return WireError(.nameTaken, "The name \"\(name)\" \(why); try \"\(suggestion)\".",
                         details: ["suggestion": .string(suggestion)])
    }

    /// The name itself when it is free to `claimant`, or else (out of a reserved shape first)
    /// with the first number that makes it free: no account owns it, nobody sits under it in the
    /// match, it is not kept for another; shortened to fit when it must.
    func freeName(like name: String, for claimant: NameClaimant = .client, sitting: (String) -> SeatHolder? = { _ in nil }) -> String {
        func isFree(_ candidate: String) -> Bool {
            book.account(named: candidate) == nil && sitting(candidate) == nil && reservedNames.allows(candidate, to: claimant)
        }
        let stem = reservedNames.allows(name, to: claimant) ? name : reservedNames.unreserved(name)
        if stem != name && isFree(stem) { return stem }
        for number in 2... {
            let suffix = String(number)
            let candidate = String(stem.prefix(ClientMessageDecoder.maxNameLength - suffix.count)).trimmingCharacters(in: .whitespaces) + suffix
            if isFree(candidate) { return candidate }
        }
        return stem
    }

    /// What a finished game makes for the record (not yet written: `record` writes it).
    func record(of finished: FinishedGame, journal: String) -> GameRecord {
        book.record(of: finished, wallSeconds: wallSeconds(), journal: journal, policy: policy)
    }

    /// Writes a finished game's record and applies it; one not written is kept to try again,
    /// exactly as it was computed (its ratings may be told once it is written). A game already
    /// in the log (recovered twice) is not written again.
    @discardableResult
    func record(_ game: GameRecord) -> Bool {
        guard !book.hasGame(game.commitment) else { return true }
        var game = game
        if game.rated, let refusal = AccountRecord.game(game).refusal(of: AccountRecord.game(game).encoded()) {
            // Never seen while the rater keeps to `RatingBounds`; if it ever is, the game is
            // kept unrated rather than lost, and nobody's rating moves on figures nobody can read.
            log("\(game.match) game \(game.game) is recorded unrated: its ratings would not read back (\(refusal))")
            game = game.unrated
        }
        let before = game.players.map { player in player.account.flatMap { book.account($0)?.ratings[game.variant] } }
        guard commit(.game(game)) else {
            log("cannot write the record of \(game.match) game \(game.game) (\(file?.failure ?? "")): its game over waits until it is written")
            unwritten.append(game)
            return false
        }
        rankings.update(after: game, before: before, in: book)
        return true
    }

    /// Where a finished game's record stands, once `record` was given it.
    func state(of finished: FinishedGame) -> RecordState {
        if let game = book.game(finished.commitment) { return .committed(game) }
        if unwritten.contains(where: { $0.commitment == finished.commitment }) { return .unwritten }
        return .committed(nil)
    }

    /// A replayed game's record: the one the log holds, or, for a game of an account that ended
    /// after its journal said so but before the accounts log did (a stop between the two writes,
    /// so its end was never told), one written now. A game of guests alone is not kept in memory
    /// and moved no rating: it is not written again at every start.
    func recovered(_ finished: FinishedGame) -> RecordState {
        if let game = book.game(finished.commitment) { return .committed(game) }
        guard finished.seats.contains(where: { $0.account != nil }) else { return .committed(nil) }
        guard record(record(of: finished, journal: "\(finished.match).jsonl")) else { return .unwritten }
        log("recorded \(finished.match) game \(finished.game), which ended before the server stopped")
        return state(of: finished)
    }

    /// One page of a variant's leaderboard, from its ranking kept in order.
    func leaderboard(_ variant: Variant, after: String?, limit: Int) -> Result<AccountInfo, WireError> {
        AccountReplies.leaderboard(variant, ranked: rankings.ranked(variant, in: book), after: after, limit: limit, in: book)
    }

    /// Tries again to write the records a full disk held back, oldest first.
    func retry() {
        let waiting = unwritten
        unwritten = []
        for (index, game) in waiting.enumerated() where !record(game) {
            unwritten += waiting[(index + 1)...]  // `record` kept `game` itself
            return
        }
    }
}
