import SetRules
import SetWire

/// What a join is decided against, read on the loop at the moment of each step: the lobby's
/// matches and this node's lease as they are then. `Server` answers it from its lobby and node
/// edge; a test answers it from plain values. Reading it does nothing.
protocol JoinWorld<Room> {
    /// The match a seat is taken in (`MatchRoom` on the server).
    associatedtype Room

    /// Whether this server is a node sharing a store with others (`serve --node`).
    var isNode: Bool { get }
    /// Whether an operator drains this node: it makes no new match of any kind.
    var draining: Bool { get }
    /// Whether this node's own lease has lapsed: it cannot pair anyone.
    var ownLeaseLapsed: Bool { get }
    /// The store's wall clock as this node last read it, in milliseconds, to judge other nodes' leases.
    var wallNowMs: Int64 { get }
    /// This node's name.
    var nodeName: String { get }
    /// The refusal for a new match on a drained node (`server_full`).
    var drainedRefusal: WireError { get }
    /// The refusal for a player this node cannot pair now (`node_away` naming this node).
    var cannotPair: WireError { get }

    /// The join to pair through the store, when `join` must be (`Server.pairingJoin`).
    func pairingJoin(_ join: JoinRequest) -> JoinRequest?
    /// Whether this node holds the match `join` names (or its token's).
    func holdsHere(_ join: JoinRequest) -> Bool
    /// The refusal for a join to a match held here while this node's lease has lapsed.
    func lapsedRefusal(_ join: JoinRequest) -> WireError?
    /// The refusal for one more placement row from the joining connection's address.
    func placementRefusal() -> WireError?
    /// Whether `join` takes a new seat (and so has its account looked up first).
    func takesNewSeat(_ join: JoinRequest) -> Bool
    /// Where `join` leads in the lobby now.
    func seating(_ join: JoinRequest) -> Result<JoinSeating<Room>, WireError>
    /// Whether `room` holds back a finished game whose record is not in the store yet.
    func isHoldingBack(_ room: Room) -> Bool
    /// Whether `room` is still the lobby's match under its name.
    func isCurrent(_ room: Room) -> Bool
    /// Why `room` cannot seat a new player (in `seat`, if asked), if it cannot.
    func seatRefusal(in room: Room, requested seat: Seat?) -> WireError?
    /// Who sits under `name` in the match `join` enters, if anyone does.
    func holder(of name: String, joining join: JoinRequest) -> SeatHolder?
    /// Frees `room` when a join that is not seated leaves it as it was made: nobody in it and no
    /// seat held. Kept, such a match would be listed as waiting, and counted against the server's
    /// and the address's matches, until the seat wait ran out.
    func releaseIfUnused(_ room: Room)
    /// Who the joining connection is (its account key or door key, or a guest).
    var identity: PlayerIdentity { get }
    /// The door bot match the door started the joining connection for, if it did.
    var doorBotMatch: String? { get }
    /// Who the joining connection is when it asks for a name.
    var claimant: NameClaimant { get }
    /// The names the server keeps for what it hands out.
    var reservedNames: ReservedNames { get }
    /// Why the record a join would write may not be written now, if it may not.
    func recordRefusal(_ kind: AccountRecordKind) -> WireError?
}

/// Where a join leads in the lobby (`Lobby.Seating` is this over `MatchRoom`).
enum JoinSeating<Room> {
    /// A spectator watches the match.
    case watch(Room)
    /// A player takes a new seat with a fresh token (`Lobby.seated` records it once taken).
    case take(Room, token: String)
    /// A seat token brings its player back to the seat.
    case resume(Room, Seat, token: String)

    /// The match the join would enter.
    var room: Room {
        switch self {
        case .watch(let room), .take(let room, _), .resume(let room, _, _): room
        }
    }
}
