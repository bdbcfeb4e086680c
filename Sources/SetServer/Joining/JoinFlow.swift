import SetDatabase
import SetRules
import SetWire

/// One connection's join as a value (issue 42 "The shape"), as `MatchHost` is a match: routed
/// across nodes, placed, paired, its account looked up and written, its name refused, a record
/// waited for, then seated. Each input returns the one thing the server is to do next
/// (`JoinEffect`); the server performs it in one place (`Server+JoinFlow`) and feeds the answer
/// back. It does no I/O, and reads the lobby and the node only through a `JoinWorld`.
struct JoinFlow<Room> {
    /// Where the join is, and what each stage waits for.
    enum Stage {
        /// Asking the node directory where a named match lives.
        case routing(JoinRequest, match: String)
        /// Placing a new named match in the node directory (here, or where another node made it).
        case placing(JoinRequest, match: String)
        /// Asking the store which duel an unnamed player goes to; `then` is where it goes on.
        case pairing(JoinRequest, variant: Variant, then: AfterPairing)
        /// Asking the accounts store for the player's account and its name's owner.
        case lookingUp(JoinRequest)
        /// Writing the account a seat is taken with (made or renamed).
        case writing(JoinRequest, SeatAdmission, in: Room, token: String)
        /// Waiting for a finished game's record before the joiner may hear of it.
        case waitingForRecord(JoinRequest, SeatAdmission)
        /// Answered: seated, redirected or refused.
        case done
    }

    /// Where a paired player goes on: routed as a join naming their duel, or admitted to a seat.
    enum AfterPairing: Equatable {
        case route
        case admit
    }

    private(set) var stage: Stage = .done

    /// The match a seat is being taken in while the account is written: the server frees it,
    /// if nobody else came, when the joining connection closes before the answer.
    var roomAwaitingSeat: Room? {
        if case .writing(_, _, let room, _) = stage { room } else { nil }
    }

    /// The join's first step, once the connection may join and has its identity.
    mutating func start(_ join: JoinRequest, in world: some JoinWorld<Room>) -> JoinEffect<Room> {
        if let refusal = Self.botMatchRefusal(join, in: world) ?? Self.watchingRefusal(join, in: world) {
            return finish(.refuse(.error(refusal)))
        }
        return route(join, in: world)
    }

    /// Why a join may not take a new seat in the door bot match it names: such a match seats
    /// only the connections the door started for it (the player and its house bot), so nobody
    /// else can wait there for a key's bot (whose match name anyone can compute).
    static func botMatchRefusal(_ join: JoinRequest, in world: some JoinWorld<Room>) -> WireError? {
        guard join.role == .player, join.token == nil, let name = join.match, DoorAttestation.isBotMatch(name) else { return nil }
        guard world.doorBotMatch != name else { return nil }
        return WireError(.matchFull, "Match \"\(name)\" is a door bot match: its seats are kept for the ssh player it was started for and their bot; watch it instead.")
    }

    /// Why a watcher may not watch under its name, if it may not: a spectator's name is lent, but
    /// not one the server hands out (its chat line would pass for the door's guest, key or bot).
    static func watchingRefusal(_ join: JoinRequest, in world: some JoinWorld<Room>) -> WireError? {
        let reserved = world.reservedNames, name = join.name
        guard join.role == .spectator, !reserved.allows(name, to: world.claimant) else { return nil }
        let suggestion = reserved.unreserved(name)
        return WireError(.nameTaken, "The name \"\(name)\" \(reserved.reason(name)); try \"\(suggestion)\".",
                         details: ["suggestion": .string(suggestion)])
    }

    /// The next step, with what the effect last returned asked for.
    mutating func handle(_ input: JoinInput, in world: some JoinWorld<Room>) -> JoinEffect<Room> {
        switch (stage, input) {
        case (.placing, .home(.success(nil))):
            // A new match, and every node is drained: none makes it.
            return finish(.refuse(.error(world.drainedRefusal)))
        case (.routing(let join, let match), .home(let answer)), (.placing(let join, let match), .home(let answer)):
            return routed(join, match: match, answer, in: world)
        case (.pairing(let join, let variant, let then), .paired(let answer)):
            return paired(join, variant: variant, answer, then: then, in: world)
        case (.lookingUp(let join), .lookedUp(let answer)):
            return lookedUp(join, answer, in: world)
        case (.writing(let join, let admission, let room, let token), .written(let answer)):
            return written(join, admission, in: room, token: token, answer, in: world)
        case (.waitingForRecord(let join, let admission), .recordTold):
            return seat(join, admission: admission, in: world)
        case (.waitingForRecord, .recordUnwaitable):
            return finish(.refuse(.error(MatchRoom.recordUnwritten)))
        default:
            assertionFailure("an answer for a step this join is not at")
            return finish(.none)
        }
    }

    // MARK: routing across nodes

    private mutating func route(_ original: JoinRequest, in world: some JoinWorld<Room>) -> JoinEffect<Room> {
        guard world.isNode else { return proceed(original, in: world) }
        // A resume that names no match goes where its token's match lives (the token names it).
        var join = original
        if join.role == .player, join.match == nil, let token = join.token, let named = TokenMatch.match(of: token) { join.match = named }
        if let unnamed = world.pairingJoin(join) { return pair(unnamed, then: .route, in: world) }
        // A drained node makes no new match of any kind: a solo game naming none would be one.
        if world.draining, join.role == .player, join.mode == .solo, join.match == nil, join.token == nil {
            return finish(.refuse(.error(world.drainedRefusal)))
        }
        if world.holdsHere(join) {
            if let refusal = world.lapsedRefusal(join) { return finish(.refuse(.error(refusal))) }
            return proceed(join, in: world)
        }
        guard let match = join.match else { return proceed(join, in: world) }
        // A seat token resumes a seat where it was taken: it places nothing.
        guard join.role == .player, join.token == nil else {
            stage = .routing(join, match: match)
            return .findHome(match)
        }
        // A placement writes a row before any match exists: one address holds only so many.
        if let refusal = world.placementRefusal() { return finish(.refuse(.error(refusal))) }
        stage = .placing(join, match: match)
        return .place(match)
    }

    private mutating func routed(_ join: JoinRequest, match: String, _ answer: Result<MatchHome?, DatabaseError>,
                                 in world: some JoinWorld<Room>) -> JoinEffect<Room> {
        switch answer {
        case .failure(let error): return finish(.refuse(.unreachable(error, match: match)))
        case .success(nil): return proceed(join, in: world)
        case .success(let home?):
            guard home.node != world.nodeName else { return proceed(join, in: world) }
            guard home.lease.isAlive(at: world.wallNowMs) else {
                let away = NodeEdge.away(match: match, node: home.node, retryAfterMs: home.lease.retryAfterMs(at: world.wallNowMs))
                return finish(.refuse(.error(away)))
            }
            return finish(.redirect(Redirect(match: match, address: home.address), joining: join))
        }
    }

    /// A join this node goes on with: a new seat has its account looked up first; a resume or a watcher needs none.
    private mutating func proceed(_ join: JoinRequest, in world: some JoinWorld<Room>) -> JoinEffect<Room> {
        guard world.takesNewSeat(join) else { return seat(join, admission: .guest, in: world) }
        return lookUp(join)
    }

    // MARK: pairing unnamed players

    private mutating func pair(_ join: JoinRequest, then: AfterPairing, in world: some JoinWorld<Room>) -> JoinEffect<Room> {
        guard world.isNode else { return then == .route ? proceed(join, in: world) : lookUp(join) }
        if world.ownLeaseLapsed { return finish(.refuse(.error(world.cannotPair))) }
        let variant = join.variant ?? .classic
        stage = .pairing(join, variant: variant, then: then)
        return .pair(variant)
    }

    private mutating func paired(_ join: JoinRequest, variant: Variant, _ answer: Result<PairingDecision, DatabaseError>,
                                 then: AfterPairing, in world: some JoinWorld<Room>) -> JoinEffect<Room> {
        var paired = join
        paired.variant = variant
        switch answer {
        case .failure(let error): return finish(.refuse(.pairingUnreachable(error, world.cannotPair)))
        case .success(.wait(let match)): paired.match = match
        case .success(.join(let duel)) where duel.node == world.nodeName: paired.match = duel.match
        case .success(.join(let duel)): return finish(.redirect(Redirect(match: duel.match, address: duel.address), joining: join))
        case .success(.drained): return finish(.refuse(.error(world.drainedRefusal)))
        }
        return then == .route ? proceed(paired, in: world) : lookUp(paired)
    }

    // MARK: the account and the name

    private mutating func lookUp(_ join: JoinRequest) -> JoinEffect<Room> {
        stage = .lookingUp(join)
        return .lookUp(name: join.name)
    }

    private mutating func lookedUp(_ join: JoinRequest, _ answer: Result<JoinLookup, StoreError>,
                                   in world: some JoinWorld<Room>) -> JoinEffect<Room> {
        let lookup: JoinLookup
        switch answer {
        case .failure(let error): return finish(.refuse(.store(error)))
        case .success(let found): lookup = found
        }
        let decision = JoinDecision(join.name, identity: world.identity, claimant: world.claimant, bot: join.bot, lookup: lookup,
                                    reserved: world.reservedNames, sitting: { world.holder(of: $0, joining: join) },
                                    limit: { world.recordRefusal($0) })
        switch decision {
        case .admitted(let admission): return seat(join, admission: admission, in: world)
        case .limited(let error): return finish(.refuse(.error(error)))
        case .nameRefused(let refusal): return finish(.refuseName(refusal, joining: join))
        }
    }

    private mutating func written(_ join: JoinRequest, _ admission: SeatAdmission, in room: Room, token: String,
                                  _ answer: Result<StoredAccount?, StoreError>, in world: some JoinWorld<Room>) -> JoinEffect<Room> {
        let account: StoredAccount?
        // Refused: a match made for this join (a new name, a solo game) goes with it.
        if case .failure = answer { world.releaseIfUnused(room) }
        switch answer {
        case .failure(.overAllowance(let waitMs)):
            // Spent through other nodes: the ration is the service's (issue 42 item 2).
            return finish(.refuse(.recordLimit(admission.recordKind, waitMs: waitMs)))
        case .failure(.nameTaken):
            // Another server sharing the store took the name since it was looked up.
            return finish(.refuseName(NameRefusal(name: join.name, because: "belongs to another player here"), joining: join))
        case .failure(let error): return finish(.refuse(.store(error)))
        case .success(let written): account = written
        }
        // A node's duel this player was paired into may have filled while the account was written.
        if let unnamed = world.pairingJoin(join) { return pair(unnamed, then: .admit, in: world) }
        guard world.isCurrent(room) else {
            return finish(.refuse(.error(WireError(.noSuchMatch, "The match you were joining ended before your seat was ready; join again."))))
        }
        if let refusal = world.seatRefusal(in: room, requested: join.seat) { return finish(.refuse(.error(refusal))) }
        if let holder = world.holder(of: join.name, joining: join), holder != account.map({ .account(id: $0.id) }) {
            return finish(.refuseName(NameRefusal(name: join.name, because: "is another player's in that match"), joining: join))
        }
        return finish(.take(join, room, token: token, account: account, admission: admission))
    }

    // MARK: seating

    /// Seats a join whose account admission is decided: a new seat whose admission writes waits for the store first.
    private mutating func seat(_ join: JoinRequest, admission: SeatAdmission, in world: some JoinWorld<Room>) -> JoinEffect<Room> {
        // The duel a node's player was paired into may have filled or emptied while their account was looked up.
        if let unnamed = world.pairingJoin(join) { return pair(unnamed, then: .admit, in: world) }
        let seating: JoinSeating<Room>
        switch world.seating(join) {
        case .failure(let error): return finish(.refuse(.error(error)))
        case .success(let found): seating = found
        }
        // A joiner is sent a snapshot or the events it missed: none may tell of a game over
        // whose record is not in the store yet.
        if world.isHoldingBack(seating.room) {
            stage = .waitingForRecord(join, admission)
            return .waitForRecord(seating.room)
        }
        switch seating {
        case .watch(let room): return finish(.watch(join, room))
        case .resume(let room, let seat, let token): return finish(.resume(join, room, seat, token: token))
        case .take(let room, let token):
            if let refusal = world.seatRefusal(in: room, requested: join.seat) { return finish(.refuse(.error(refusal))) }
            guard admission.writes else { return finish(.take(join, room, token: token, account: admission.account, admission: admission)) }
            stage = .writing(join, admission, in: room, token: token)
            return .writeAccount(admission)
        }
    }

    private mutating func finish(_ effect: JoinEffect<Room>) -> JoinEffect<Room> {
        stage = .done
        return effect
    }
}
