@testable import SetServer
import SetDatabase
import SetRules
import SetWire
import Testing

/// The join as one value (`JoinFlow`): every path, from the request to its seat, redirect or
/// refusal, driven with plain values: no socket, no store, no lobby.
@Suite struct JoinFlowTests {
    /// A lobby and node made of values; rooms are their names.
    struct World: JoinWorld {
        var isNode = false
        var draining = false
        var ownLeaseLapsed = false
        var wallNowMs: Int64 = 10_000
        var nodeName = "a"
        var drainedRefusal = WireError(.serverFull, "drained")
        var cannotPair = WireError(.nodeAway, "cannot pair")
        var identity = PlayerIdentity.guest
        var claimant = NameClaimant.client
        var doorBotMatch: String?
        var reservedNames = ReservedNames(houseBots: false)
        /// Matches this node holds.
        var here: Set<String> = []
        /// Whether a join must be paired through the store (the server's `pairingJoin`).
        var mustPair: (JoinRequest) -> JoinRequest? = { _ in nil }
        var placementCap: WireError?
        var seatingAnswer: Result<JoinSeating<String>, WireError> = .success(.take("m", token: "m~t"))
        var holdingBack: Set<String> = []
        var gone: Set<String> = []
        var full: Set<String> = []
        var sitting: [String: SeatHolder] = [:]
        var limited: WireError?
        /// The rooms the flow asked to free, in order.
        let released = Released()

        final class Released {
            var rooms: [String] = []
        }

        func pairingJoin(_ join: JoinRequest) -> JoinRequest? { mustPair(join) }
        func holdsHere(_ join: JoinRequest) -> Bool { join.match.map(here.contains) ?? false }
        func lapsedRefusal(_ join: JoinRequest) -> WireError? { nil }
        func placementRefusal() -> WireError? { placementCap }
        func takesNewSeat(_ join: JoinRequest) -> Bool { join.role == .player && join.token == nil }
        func seating(_ join: JoinRequest) -> Result<JoinSeating<String>, WireError> { seatingAnswer }
        func isHoldingBack(_ room: String) -> Bool { holdingBack.contains(room) }
        func isCurrent(_ room: String) -> Bool { !gone.contains(room) }
        func seatRefusal(in room: String, requested seat: Seat?) -> WireError? {
            full.contains(room) ? WireError(.matchFull, "full") : nil
        }
        func holder(of name: String, joining join: JoinRequest) -> SeatHolder? { sitting[name] }
        func recordRefusal(_ kind: AccountRecordKind) -> WireError? { limited }
        func releaseIfUnused(_ room: String) { released.rooms.append(room) }
    }

    static let key = PlayerIdentity.accountKey(digest: String(repeating: "a", count: 64))
    static func account(_ id: Int, _ name: String, _ identity: PlayerIdentity = key) -> StoredAccount {
        StoredAccount(id: id, identity: identity, name: name, bot: false, createdWall: 0, ratings: VariantRatings())
    }
    static let alive = NodeLease(until: 20_000), lapsed = NodeLease(until: 9_000)

    /// Drives a flow from `join` through `answers`, one per effect that asks something.
    static func run(_ join: JoinRequest, in world: World, answers: [JoinInput] = []) -> [JoinEffect<String>] {
        var flow = JoinFlow<String>()
        var effects = [flow.start(join, in: world)]
        for answer in answers { effects.append(flow.handle(answer, in: world)) }
        if case .done = flow.stage {} else if effects.count == answers.count + 1, isAnswer(effects.last) {
            Issue.record("the flow ended on a step that is not an answer: \(String(describing: effects.last))")
        }
        return effects
    }

    static func isAnswer(_ effect: JoinEffect<String>?) -> Bool {
        switch effect {
        case .redirect, .refuse, .refuseName, .watch, .resume, .take: true
        default: false
        }
    }

    static func code(_ effect: JoinEffect<String>?) -> ErrorCode? {
        guard case .refuse(.error(let error)) = effect else { return nil }
        return error.code
    }

    @Test func aFreshGuestIsLookedUpThenTakesItsSeat() {
        let join = JoinRequest(name: "ann", match: "m")
        let effects = Self.run(join, in: World(), answers: [.lookedUp(.success(JoinLookup()))])
        guard case .lookUp(let name) = effects[0] else { return #expect(Bool(false), "\(effects)") }
        #expect(name == "ann")
        guard case .take(let seated, let room, let token, let account, let admission) = effects[1] else { return #expect(Bool(false), "\(effects)") }
        #expect(seated == join && room == "m" && token == "m~t" && account == nil && admission == .guest)
    }

    @Test func aResumeNeedsNoAccountAndGoesBackToItsSeat() {
        var world = World()
        world.seatingAnswer = .success(.resume("m", .second, token: "m~t"))
        let effects = Self.run(JoinRequest(name: "ann", match: "m", token: "m~t"), in: world)
        guard case .resume(_, let room, let seat, let token) = effects[0] else { return #expect(Bool(false), "\(effects)") }
        #expect(room == "m" && seat == .second && token == "m~t")
    }

    @Test func aWatcherWatches() {
        var world = World()
        world.seatingAnswer = .success(.watch("m"))
        let effects = Self.run(JoinRequest(role: .spectator, name: "eve", match: "m"), in: world)
        guard case .watch(_, let room) = effects[0] else { return #expect(Bool(false), "\(effects)") }
        #expect(room == "m")
    }

    @Test func aNewKeyGetsItsAccountWrittenBeforeItsSeat() {
        var world = World()
        world.identity = Self.key
        let made = Self.account(7, "ann")
        let effects = Self.run(JoinRequest(name: "ann", match: "m"), in: world,
                               answers: [.lookedUp(.success(JoinLookup())), .written(.success(made))])
        guard case .writeAccount(.creating(let identity, let name, false)) = effects[1] else { return #expect(Bool(false), "\(effects)") }
        #expect(identity == Self.key && name == "ann")
        guard case .take(_, "m", _, let account, .creating) = effects[2] else { return #expect(Bool(false), "\(effects)") }
        #expect(account == made)
    }

    @Test func aWrittenAccountFindsItsMatchGoneOrItsNameTakenMeanwhile() {
        var world = World()
        world.identity = Self.key
        let answers: [JoinInput] = [.lookedUp(.success(JoinLookup())), .written(.success(Self.account(7, "ann")))]
        var gone = world
        gone.gone = ["m"]
        #expect(Self.code(Self.run(JoinRequest(name: "ann", match: "m"), in: gone, answers: answers)[2]) == .noSuchMatch)
        var seated = world
        seated.sitting = ["ann": .guest]
        // The lookup saw nobody under the name; a guest sat down under it while the account was written.
        var flow = JoinFlow<String>()
        _ = flow.start(JoinRequest(name: "ann", match: "m"), in: world)
        _ = flow.handle(answers[0], in: world)
        guard case .refuseName(let refusal, _) = flow.handle(answers[1], in: seated) else { return #expect(Bool(false)) }
        #expect(refusal == NameRefusal(name: "ann", because: "is another player's in that match"))
        let taken = Self.run(JoinRequest(name: "ann", match: "m"), in: world, answers: [answers[0], .written(.failure(.nameTaken))])
        guard case .refuseName(let other, _) = taken[2] else { return #expect(Bool(false), "\(taken)") }
        #expect(other.because == "belongs to another player here")
        let spent = Self.run(JoinRequest(name: "ann", match: "m"), in: world, answers: [answers[0], .written(.failure(.overAllowance(waitMs: 500)))])
        guard case .refuse(.recordLimit(.create, 500)) = spent[2] else { return #expect(Bool(false), "\(spent)") }
    }

    /// The match a new seat was to be taken in is given back when the account cannot be written
    /// (a name another node took meanwhile, a ration spent, a store away): the join made it.
    @Test func aRefusedAccountWriteGivesBackTheMatchItsSeatWasIn() {
        var world = World()
        world.identity = Self.key
        for failure in [StoreError.nameTaken, .overAllowance(waitMs: 500), .unavailable("down")] {
            world.released.rooms = []
            var flow = JoinFlow<String>()
            _ = flow.start(JoinRequest(name: "ann", match: "m"), in: world)
            _ = flow.handle(.lookedUp(.success(JoinLookup())), in: world)
            #expect(flow.roomAwaitingSeat == "m", "the server frees it if the connection goes meanwhile")
            #expect(world.released.rooms.isEmpty)
            let refused = flow.handle(.written(.failure(failure)), in: world)
            #expect(Self.isAnswer(refused), "\(refused)")
            #expect(world.released.rooms == ["m"], "\(failure)")
            #expect(flow.roomAwaitingSeat == nil)
        }
        world.released.rooms = []
        let seated = Self.run(JoinRequest(name: "ann", match: "m"), in: world,
                              answers: [.lookedUp(.success(JoinLookup())), .written(.success(Self.account(7, "ann")))])
        guard case .take = seated[2] else { return #expect(Bool(false), "\(seated)") }
        #expect(world.released.rooms.isEmpty, "a seated join keeps its match")
    }

    @Test func aNameAnotherAccountOwnsIsRefusedWithASuggestionToFind() {
        let owner = Self.account(3, "ann", .sshKey(fingerprint: "SHA256:x"))
        let effects = Self.run(JoinRequest(name: "ann", match: "m"), in: World(),
                               answers: [.lookedUp(.success(JoinLookup(account: nil, owner: owner)))])
        guard case .refuseName(let refusal, let join) = effects[1] else { return #expect(Bool(false), "\(effects)") }
        #expect(refusal == NameRefusal(name: "ann", because: "belongs to another player here") && join.name == "ann")
    }

    @Test func aStoreThatCannotAnswerOrARationSpentRefusesAndWritesNothing() {
        let failed = Self.run(JoinRequest(name: "ann", match: "m"), in: World(), answers: [.lookedUp(.failure(.unavailable("down")))])
        guard case .refuse(.store(.unavailable("down"))) = failed[1] else { return #expect(Bool(false), "\(failed)") }
        var world = World()
        world.identity = Self.key
        world.limited = WireError(.accountLimit, "later")
        let limited = Self.run(JoinRequest(name: "ann", match: "m"), in: world, answers: [.lookedUp(.success(JoinLookup()))])
        #expect(Self.code(limited[1]) == .accountLimit)
    }

    @Test func aGameOverNotYetRecordedIsWaitedForThenTheSeatIsLookedAtAgain() {
        var world = World()
        world.holdingBack = ["m"]
        var flow = JoinFlow<String>()
        _ = flow.start(JoinRequest(name: "ann", match: "m"), in: world)
        guard case .waitForRecord("m") = flow.handle(.lookedUp(.success(JoinLookup())), in: world) else { return #expect(Bool(false)) }
        guard case .waitingForRecord = flow.stage else { return #expect(Bool(false), "\(flow.stage)") }
        world.holdingBack = []
        guard case .take(_, "m", _, nil, .guest) = flow.handle(.recordTold, in: world) else { return #expect(Bool(false)) }
        // A store failed already: nothing waits, and the join is refused.
        var stuck = JoinFlow<String>()
        world.holdingBack = ["m"]
        _ = stuck.start(JoinRequest(name: "ann", match: "m"), in: world)
        _ = stuck.handle(.lookedUp(.success(JoinLookup())), in: world)
        guard case .refuse(.error(let error)) = stuck.handle(.recordUnwaitable, in: world) else { return #expect(Bool(false)) }
        #expect(error == MatchRoom.recordUnwritten)
    }

    @Test func aMatchAnotherLiveNodeHoldsIsARedirectAndAResumeFollowsItsToken() {
        var world = World()
        world.isNode = true
        let home = MatchHome(node: "b", address: "127.0.0.1:7001", lease: Self.alive)
        let resume = JoinRequest(name: "ann", token: TokenMatch.token(match: "far", secret: "s"))
        let effects = Self.run(resume, in: world, answers: [.home(.success(home))])
        guard case .findHome("far") = effects[0] else { return #expect(Bool(false), "\(effects)") }
        guard case .redirect(let redirect, _) = effects[1] else { return #expect(Bool(false), "\(effects)") }
        #expect(redirect == Redirect(match: "far", address: "127.0.0.1:7001"))
        // A new named match is placed; placed here, the join goes on here.
        let placed = Self.run(JoinRequest(name: "ann", match: "new"), in: world,
                              answers: [.home(.success(MatchHome(node: "a", address: "x", lease: Self.alive)))])
        guard case .place("new") = placed[0], case .lookUp = placed[1] else { return #expect(Bool(false), "\(placed)") }
        // Placed nowhere (every node drained): refused, not made here.
        let nowhere = Self.run(JoinRequest(name: "ann", match: "new"), in: world, answers: [.home(.success(nil))])
        guard case .refuse(.error(let drained)) = nowhere[1] else { return #expect(Bool(false), "\(nowhere)") }
        #expect(drained == world.drainedRefusal)
        var placing = JoinFlow<String>()
        _ = placing.start(JoinRequest(name: "ann", match: "new"), in: world)
        guard case .placing(_, "new") = placing.stage else { return #expect(Bool(false), "\(placing.stage)") }
        world.placementCap = WireError(.rateLimited, "too many")
        #expect(Self.code(Self.run(JoinRequest(name: "ann", match: "new"), in: world)[0]) == .rateLimited)
    }

    @Test func aMatchWhoseNodeIsAwayIsNodeAwayAndAStoreThatCannotSayIsToo() {
        var world = World()
        world.isNode = true
        let away = Self.run(JoinRequest(role: .spectator, name: "eve", match: "far"), in: world,
                            answers: [.home(.success(MatchHome(node: "b", address: "x", lease: Self.lapsed)))])
        guard case .refuse(.error(let error)) = away[1] else { return #expect(Bool(false), "\(away)") }
        #expect(error.code == .nodeAway && error.details["node"] == .string("b") && error.details["retryAfterMs"] == .int(1_000))
        let unknown = Self.run(JoinRequest(role: .spectator, name: "eve", match: "far"), in: world,
                               answers: [.home(.failure(DatabaseError(.unavailable, "down")))])
        guard case .refuse(.unreachable(_, "far")) = unknown[1] else { return #expect(Bool(false), "\(unknown)") }
    }

    @Test func anUnnamedPlayerIsPairedAcrossNodes() {
        var world = World()
        world.isNode = true
        world.mustPair = { $0.match == nil ? $0 : nil }
        let elsewhere = Self.run(JoinRequest(name: "ann"), in: world,
                                 answers: [.paired(.success(.join(WaitingDuel(match: "duel-2", node: "b", address: "127.0.0.1:7001"))))])
        guard case .pair(.classic) = elsewhere[0], case .redirect(let redirect, _) = elsewhere[1] else { return #expect(Bool(false), "\(elsewhere)") }
        #expect(redirect == Redirect(match: "duel-2", address: "127.0.0.1:7001"))
        let waits = Self.run(JoinRequest(name: "ann"), in: world, answers: [.paired(.success(.wait(match: "duel-9")))])
        guard case .lookUp = waits[1] else { return #expect(Bool(false), "\(waits)") }
        let seated = Self.run(JoinRequest(name: "ann"), in: world,
                              answers: [.paired(.success(.wait(match: "duel-9"))), .lookedUp(.success(JoinLookup()))])
        guard case .take(let join, _, _, _, _) = seated[2] else { return #expect(Bool(false), "\(seated)") }
        #expect(join.match == "duel-9" && join.variant == .classic)
        let down = Self.run(JoinRequest(name: "ann"), in: world, answers: [.paired(.failure(DatabaseError(.unavailable, "down")))])
        guard case .refuse(.pairingUnreachable(_, let refusal)) = down[1] else { return #expect(Bool(false), "\(down)") }
        #expect(refusal == world.cannotPair)
        world.ownLeaseLapsed = true
        #expect(Self.code(Self.run(JoinRequest(name: "ann"), in: world)[0]) == .nodeAway)
    }

    @Test func aDuelThatFilledWhileTheAccountWasLookedUpIsPairedAfresh() {
        var world = World()
        world.isNode = true
        world.here = ["duel-1"]
        var flow = JoinFlow<String>()
        guard case .lookUp = flow.start(JoinRequest(name: "ann", match: "duel-1"), in: world) else { return #expect(Bool(false)) }
        world.mustPair = { $0.match == "duel-1" ? JoinRequest(name: $0.name) : nil }
        guard case .pair = flow.handle(.lookedUp(.success(JoinLookup())), in: world) else { return #expect(Bool(false)) }
        // Paired afresh, the player is admitted again: looked up under their new duel.
        world.mustPair = { _ in nil }
        guard case .lookUp = flow.handle(.paired(.success(.wait(match: "duel-4"))), in: world) else { return #expect(Bool(false)) }
    }

    @Test func aDrainedNodeMakesNoNewMatchOfAnyKind() {
        var world = World()
        world.isNode = true
        world.draining = true
        #expect(Self.code(Self.run(JoinRequest(name: "ann", mode: .solo), in: world)[0]) == .serverFull)
        world.mustPair = { $0.match == nil ? $0 : nil }
        let paired = Self.run(JoinRequest(name: "ann"), in: world, answers: [.paired(.success(.drained))])
        #expect(Self.code(paired[1]) == .serverFull)
    }

    @Test func aDoorBotMatchSeatsOnlyItsOwnConnectionsAndAWatcherIsLentNoReservedName() {
        let botMatch = "bot-" + String(repeating: "b", count: 12)
        var world = World()
        world.seatingAnswer = .success(.take(botMatch, token: "t"))
        let join = JoinRequest(name: "mallory", match: botMatch)
        #expect(Self.code(Self.run(join, in: world)[0]) == .matchFull)
        world.doorBotMatch = botMatch
        guard case .lookUp = Self.run(join, in: world)[0] else { return #expect(Bool(false)) }
        let watcher = Self.run(JoinRequest(role: .spectator, name: "guest-1234", match: "m"), in: World())
        guard case .refuse(.error(let error)) = watcher[0] else { return #expect(Bool(false), "\(watcher)") }
        #expect(error.code == .nameTaken && error.details["suggestion"] != nil)
    }
}
