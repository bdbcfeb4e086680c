import SetDatabase
import SetRules
import SetWire

/// The one thing a join asks of the server next (`JoinFlow`), performed by `Server+JoinFlow`:
/// a question to the node directory or the accounts store, whose answer comes back as a
/// `JoinInput`, or the join's answer (a seat, a redirect, a refusal).
enum JoinEffect<Room> {
    /// Ask the node directory where `match` lives; answered by `.home`.
    case findHome(String)
    /// Place a new named match in the node directory (here, or where it lives); answered by `.home`.
    case place(String)
    /// Ask the store which duel of `variant` an unnamed player goes to; answered by `.paired`.
    case pair(Variant)
    /// Ask the accounts store for the joining identity's account and `name`'s owner; answered by `.lookedUp`.
    case lookUp(name: String)
    /// Make or rename the account the seat is taken with; answered by `.written`.
    case writeAccount(SeatAdmission)
    /// Wait until `room`'s finished game is told; answered by `.recordTold` (or `.recordUnwaitable`).
    case waitForRecord(Room)
    /// Tell the client where its match lives (a door connection's carries a ticket, written first).
    case redirect(Redirect, joining: JoinRequest)
    /// Refuse the join.
    case refuse(JoinRefusal)
    /// Refuse the join's name with `name_taken` and a free one like it (found in the store).
    case refuseName(NameRefusal, joining: JoinRequest)
    /// Watch `room`.
    case watch(JoinRequest, Room)
    /// Bring a player back to their seat.
    case resume(JoinRequest, Room, Seat, token: String)
    /// Take a new seat with the account the admission gave (written already).
    case take(JoinRequest, Room, token: String, account: StoredAccount?, admission: SeatAdmission)
    /// Nothing: an answer came for a step the join is not at.
    case none
}

/// Why a join is refused, as the flow knows it; the server makes the wire error of those that
/// need its log or its allowances.
enum JoinRefusal: Equatable {
    /// Said as it is.
    case error(WireError)
    /// The accounts store could not serve the join: nothing was written.
    case store(StoreError)
    /// The record's ration was spent through other nodes.
    case recordLimit(AccountRecordKind?, waitMs: Int64)
    /// The node directory could not say where `match` lives.
    case unreachable(DatabaseError, match: String)
    /// The store that pairs players did not answer (the log hears why); the player hears `refusal`.
    case pairingUnreachable(DatabaseError, WireError)
}

/// An answer to a `JoinEffect`, fed back to the flow.
enum JoinInput {
    /// Where a named match lives, from `.findHome` (nil: nowhere yet) or `.place` (nil: every node
    /// is drained, so a new match lives nowhere).
    case home(Result<MatchHome?, DatabaseError>)
    /// Where an unnamed player goes, from `.pair`.
    case paired(Result<PairingDecision, DatabaseError>)
    /// The account and the name's owner, from `.lookUp`.
    case lookedUp(Result<JoinLookup, StoreError>)
    /// The account written, from `.writeAccount`.
    case written(Result<StoredAccount?, StoreError>)
    /// The record waited for is told (or failed a first time: the seat is looked at again).
    case recordTold
    /// Nothing can wait for the record (the store has failed already).
    case recordUnwaitable
}
