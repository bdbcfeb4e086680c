import SetArena
import SetRatings
import SetRules
import SetWire

/// Where accounts, names, ratings and finished games are kept: a database (`SQLAccountStore`:
/// SQLite by default, PostgreSQL when several servers share it). Every call may wait on a disk
/// or a network, so none is ever made on the match loop: the server's accounts edge makes them
/// on a worker thread of its own, one at a time, and hands the answers back to the loop.
///
/// A change is committed before the call returns; a store that cannot commit throws
/// `StoreError.unavailable` and has changed nothing.
protocol AccountStore: AnyObject {
    /// Ends the store's connection (a SQLite file's last one folds its write-ahead log in).
    func close()
    /// The account an identity owns, if any.
    func account(for identity: PlayerIdentity) throws(StoreError) -> StoredAccount?
    /// The account that owns `name`, compared by skeleton (`PlayerName.skeleton`): "Ann", "ann"
    /// and Cyrillic "Аnn" are one name, its first owner's.
    func account(named name: String) throws(StoreError) -> StoredAccount?
    /// The account that owns a name drawn like `name` (`PlayerName.drawnAlike`: `aIice` for
    /// `alice`) though its skeleton differs, if any: such a name is not free to take.
    func account(lookingLike name: String) throws(StoreError) -> StoredAccount?
    func account(id: Int) throws(StoreError) -> StoredAccount?
    /// Makes an account for an identity met for the first time. Throws `.nameTaken` when the
    /// name's skeleton is owned or another account's name is drawn like it, and `.identityTaken`
    /// when the identity has an account: another server sharing the store may have made either
    /// since the caller looked.
    /// `charge` is spent in the same transaction (`.overAllowance` when it cannot be).
    func create(_ identity: PlayerIdentity, name: String, bot: Bool, wallSeconds: Int64, charging charge: RecordCharge) throws(StoreError) -> StoredAccount
    /// Gives an account a new name; `.nameTaken` when another account owns its skeleton or a
    /// name drawn like it; `charge`
    /// as for `create`.
    func rename(_ id: Int, to name: String, charging charge: RecordCharge) throws(StoreError) -> StoredAccount
    /// Records a finished game and moves both ratings in one transaction, reading the ratings
    /// and the pair's rated games of the day inside it (`GameRecord.init(of:…)` decides), so two
    /// servers finishing games of one player at once both count. Idempotent by commitment: a
    /// game already recorded returns the record it has. Nil: a game not kept (guests alone, outside an arena).
    func record(_ finished: FinishedGame, journal: String, wallSeconds: Int64, policy: RatingPolicy) throws(StoreError) -> GameRecord?
    /// The game dealt with this commitment, if it is recorded.
    func game(commitment: String) throws(StoreError) -> GameRecord?
    /// The answers to account questions, as Protocol.md shows them (the same fields and the
    /// same bytes whatever the store).
    func profile(_ name: String) throws(StoreError) -> Result<StoredProfile, WireError>
    func history(_ name: String, after: String?, limit: Int, id: JSONValue?) throws(StoreError) -> Result<[UInt8], WireError>
    func crosstable(_ name: String, _ other: String) throws(StoreError) -> Result<AccountInfo, WireError>
    func leaderboard(_ variant: Variant, after: String?, limit: Int) throws(StoreError) -> Result<AccountInfo, WireError>
    /// Arenas (issue 44, `ArenaStore`): a new one within its creator's allowances, or why not.
    func createArena(_ request: ArenaCreateRequest) throws(StoreError) -> Result<StoredArena, WireError>
    /// The arena named so, with its players and games (nil: none).
    func arena(named name: String) throws(StoreError) -> StoredArena?
    /// The arenas that end after `wall` (wall-clock milliseconds), the first to start first.
    func arenas(endingAfter wall: Int64) throws(StoreError) -> [StoredArena]
    /// The newest arenas (at most `limit`) the account named `name` joined, for its profile.
    func profileArenas(ofAccountNamed name: String, limit: Int) throws(StoreError) -> [ProfileArena]
    /// Keeps each player's final place in an arena whose standings are final, for profiles.
    func keepFinalPlaces(_ places: [ArenaPlace], in arena: String) throws(StoreError)
    /// The arenas with a duel dealt and not counted yet (held again after a restart).
    func arenasWithDuelsDealt() throws(StoreError) -> [String]
    /// How each of `arena`'s dealt duels ended by its stored game record, for those with one.
    func recordedArenaEnds(of arena: StoredArena) throws(StoreError) -> [Int: ArenaGameEnd]
    /// Makes a scheduled slot's arena unless it exists (false then: another node made it).
    func createScheduledArena(_ slot: ArenaSchedule.Slot, variant: Variant, wall: Int64) throws(StoreError) -> Bool
    /// Writes an arena player's row (a join, a pause, a leave).
    func saveArenaPlayer(_ player: StoredArenaPlayer, in arena: String) throws(StoreError)
    /// Writes a dealt duel with its two seat tokens before anyone is told; false: its number is taken.
    func dealArenaGame(_ game: ArenaGame, tokens: [String], in arena: String) throws(StoreError) -> Bool
    /// Counts a duel's end once; false: it was counted already.
    func finishArenaGame(_ game: ArenaGame, _ end: ArenaGameEnd, in arena: String) throws(StoreError) -> Bool
}

/// An account as the store returns it: a copy, true when it was read.
extension AccountStore {
    /// Makes an account, charged nothing (imports, tests).
    func create(_ identity: PlayerIdentity, name: String, bot: Bool, wallSeconds: Int64) throws(StoreError) -> StoredAccount {
        try create(identity, name: name, bot: bot, wallSeconds: wallSeconds, charging: .none)
    }

    /// Renames an account, charged nothing (tests).
    func rename(_ id: Int, to name: String) throws(StoreError) -> StoredAccount { try rename(id, to: name, charging: .none) }
}

struct StoredAccount: Equatable, Sendable {
    let id: Int
    let identity: PlayerIdentity
    var name: String
    let bot: Bool
    let createdWall: Int64
    var ratings: VariantRatings

    func rating(_ variant: Variant) -> Rating { ratings[variant] ?? .initial }
}

/// Why a store call did not do what it was asked, as a value: a code the server acts on and
/// words for the log.
enum StoreError: Error, Equatable, CustomStringConvertible {
    /// Another account owns the name's skeleton.
    case nameTaken
    /// The identity has an account already.
    case identityTaken
    /// The database cannot be reached or cannot commit (a full disk, a lost connection, a
    /// restart): nothing was changed; the caller may try again.
    case unavailable(String)
    /// The record's address, network or account has spent its ration for now (`RecordCharge`,
    /// counted for every node): nothing was written; a token comes in `waitMs`.
    case overAllowance(waitMs: Int64)
    /// The database refused the statement itself (a constraint, a table an operator changed, a
    /// bug): trying again would fail the same way. The reason names the statement and the error.
    case rejected(String)

    var description: String {
        switch self {
        case .overAllowance(let waitMs): "over the ration of account records for \(waitMs) ms"
        case .nameTaken: "the name is taken"
        case .identityTaken: "the identity has an account"
        case .unavailable(let reason): "the accounts store is unavailable: \(reason)"
        case .rejected(let reason): "the accounts store refused the change: \(reason)"
        }
    }
}
