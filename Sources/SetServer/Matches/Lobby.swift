import SetRules
import SetWire

/// Who sits in a seat, for telling whether a name is free to a newcomer in that match.
enum SeatHolder: Equatable {
    case guest
    case account(id: Int)
}

/// All matches on the server by name, the pairing of players who name no match, and the seat
/// tokens that let a player resume.
final class Lobby {
    /// Where a join request leads (`JoinSeating`); the server then gives the room its input.
    typealias Seating = JoinSeating<MatchRoom>

    private(set) var rooms: [String: MatchRoom] = [:]
    private var seatsByToken: [String: (match: String, seat: Seat)] = [:]
    /// The duel of each variant that pairs the next player who names no match.
    private var openDuels: [Variant: String] = [:]
    private var created = 0
    let settings: RuleSettings
    let seatWaitMs: Int64
    let nextSeed: () -> UInt64
    /// The server's clock (injected): a reservation past its deadline seats nobody.
    let now: () -> Instant
    let journals: JournalDirectory?
    let maxMatches: Int
    /// What one address may hold, and the matches each address created that still live.
    var addressLimits = AddressLimits(connections: .max, matches: .max, waitingMatches: .max, connectsPerSecond: .max)
    private var creator: [String: String] = [:]
    private var createdBy: [String: Set<String>] = [:]
    var spectatorAnnounceMs: Int64 = 1_000
    /// Matches whose seats only their tokens may take (`ServerConfig.reservedMatches`). The
    /// accepted challenges' ones are kept in the data folder as they change, so a restart keeps
    /// their seats (`ReservedDuelsFile`); a change is one for the node's listings too.
    var reservedMatches: [String: ReservedMatch] = [:] {
        didSet {
            guard reservedMatches != oldValue else { return }
            changes += 1
            if let journals { ReservedDuelsFile(folder: journals.path).write(reservedMatches) }
        }
    }
    let list: MatchList
    /// Who is listed in the lobby, and their challenges.
    let challenges = Challenges()
    /// Whether games' ends wait for their accounts records (a server keeping accounts); every
    /// room is told.
    var awaitsRecords = false
    /// This server's node name when it is one of several (`serve --node`): the matches it names
    /// itself carry it ("duel-a-3"), so no two nodes make the same name.
    var node: String?
    /// Counts matches made, seated and removed: the node renews its listings at once when it moves.
    private(set) var changes = 0

    init(settings: RuleSettings, seatWaitMs: Int64, maxMatches: Int, journals: JournalDirectory?, listCacheMs: Int64 = 0,
         nextSeed: @escaping () -> UInt64, now: @escaping () -> Instant) {
        self.maxMatches = maxMatches
        self.settings = settings
        self.seatWaitMs = seatWaitMs
        self.journals = journals
        self.nextSeed = nextSeed
        self.now = now
        list = MatchList(cacheMs: listCacheMs)
    }

    /// Takes in matches replayed from their journals after a restart.
    func adopt(_ restored: [MatchRoom]) {
        for room in restored {
            let host = room.host
            rooms[host.name] = room
            room.nextSeed = nextSeed  // its later games are dealt exactly as a fresh match's would be
            room.awaitsRecords = awaitsRecords
            for seat in host.mode.seats {
                if let token = host.seats[seat.rawValue]?.token { seatsByToken[token] = (host.name, seat) }
            }
        }
    }

    /// Who sits under `name` (case folded) in the match a join for a new seat would be seated in:
    /// the one it names, the one its reserved token keeps, or the duel it would be paired into.
    func holder(of name: String, joining request: JoinRequest) -> SeatHolder? {
        let key = PlayerName.skeleton(name)
        guard let room = existingRoom(for: request),
              let seat = room.host.seats.lazy.compactMap({ $0 }).first(where: { PlayerName.skeleton($0.name) == key }) else { return nil }
        return seat.account.map { .account(id: $0.id) } ?? .guest
    }

    /// The names (by skeleton) seated in the match a join for a new seat would sit in: a name
    /// suggested instead of a refused one is none of them.
    func seatedNames(joining request: JoinRequest) -> Set<String> {
        guard let room = existingRoom(for: request) else { return [] }
        return Set(room.host.seats.compactMap { $0.map { PlayerName.skeleton($0.name) } })
    }

    /// Whether a player's join takes a new seat (its name must then be free to it), rather than
    /// resuming one by its token: a reserved token's first join takes one too.
    func takesNewSeat(_ request: JoinRequest) -> Bool {
        guard request.role == .player else { return false }
        guard let token = request.token else { return true }
        return reservation(of: token) != nil
    }

    /// The reserved match a token takes its seat in, while it has not taken it yet and the
    /// reservation has not lapsed (the sweep forgets a lapsed one within a second; until then it
    /// seats nobody either).
    private func reservation(of token: String) -> (name: String, match: ReservedMatch)? {
        guard seatsByToken[token] == nil, let (name, match) = reservedMatches.first(where: { $0.value.tokens.contains(token) }),
              !match.lapsed(at: now(), made: rooms[name] != nil) else {
            return nil
        }
        return (name, match)
    }

    /// The live match a join for a new seat would sit in; nil when it would create one, or be refused.
    private func existingRoom(for request: JoinRequest) -> MatchRoom? {
        if let token = request.token { return reservation(of: token).flatMap { rooms[$0.name] } }
        if let name = request.match { return reservedMatches[name] == nil ? rooms[name] : nil }
        return request.mode == .duel ? pairableDuel(request.variant ?? .classic) : nil
    }

    /// The duel of `variant` that pairs the next player who names no match, while it may:
    /// someone is there to play, and a seat is free.
    private func pairableDuel(_ variant: Variant) -> MatchRoom? {
        guard let name = openDuels[variant], let room = rooms[name], room.host.phase == .waiting,
              room.host.seats.contains(where: { $0 == nil }), room.host.hasPresentPlayer else { return nil }
        return room
    }

    /// On shutdown: finished matches' journals go to `finished/`, the rest are synced for the restart.
    /// A match whose game over waits for its record (the store could not take it) is not finished
    /// yet: its journal stays for the restart, which replays it and writes the record then
    /// (`Server.recovered`); in `finished/` nothing would ever write it.
    func closeJournals() {
        for room in rooms.values {
            if room.host.phase == .playing || room.isHoldingBack { room.journal?.close() } else { journals?.retire(room) }
        }
    }

    /// Finds or creates the room a join request is for, and says what the request asks of it.
    func seating(for request: JoinRequest, address: String = "") -> Result<Seating, WireError> {
        if request.role == .spectator { return watching(request) }
        if let token = request.token {
            if let (name, match) = reservation(of: token) {
                // The first join with a reserved token takes a seat in its match under that very
                // token (a client sends a token without the match it names, as a resume).
                var request = request
                (request.match, request.mode, request.variant) = (name, match.mode, match.variant)
                return findOrCreate(request, address: address).map { room in
                    // One occasion's match (an accepted challenge) waits for both its players, and
                    // outlives a restart while it waits: its journal is on disk from its first
                    // seat, so who sat where and what was said there are known again.
                    if match.unclaimedUntil != nil {
                        room.keptForTokens = true
                        room.journal?.keep()
                    }
                    return .take(room, token: token)
                }
            }
            return resuming(token: token, request: request)
        }
        if let name = request.match, reservedMatches[name] != nil {
            return .failure(WireError(.matchFull, "Match \"\(name)\" is private: its seats are kept for the players it was started for."))
        }
        return findOrCreate(request, address: address).map { .take($0, token: SeatToken.make(for: $0.host.name)) }
    }

    /// A player took a seat: its token may resume it, and a duel that began pairs nobody else.
    /// A duel whose two seats were both taken from the address that created it is paired with
    /// itself: until someone moves it goes once both are gone (`MatchRoom.idleness`), so one
    /// client cannot hold matches for the seat wait; players from two addresses keep a dealt duel.
    /// A match the server reserved for two tokens (`setgame play`'s, whose player and bot share
    /// an address) was made by no client: it keeps its deal, as its leave box promises. So does
    /// a door bot duel, whose player and house bot share an address too: only the door seats it
    /// (`JoinFlow.botMatchRefusal`), one per key and variant, and its leave box says the seat waits.
    func seated(_ room: MatchRoom, _ seat: Seat, token: String, address: String) {
        let host = room.host
        seatsByToken[token] = (host.name, seat)
        changes += 1
        if host.mode == .duel, host.match != nil, creator[host.name] == address, reservedMatches[host.name] == nil,
           !DoorAttestation.isBotMatch(host.name) {
            room.pairedWithItself = true
        }
        if openDuels[host.variant] == host.name && host.phase != .waiting { openDuels[host.variant] = nil }
    }

    private func watching(_ request: JoinRequest) -> Result<Seating, WireError> {
        guard let name = request.match else {
            return .failure(WireError(.missingField, "\"match\" is required to watch: send {\"type\":\"list\"} to see the live matches.",
                                      details: ["field": "match"]))
        }
        guard let room = rooms[name] else {
            return .failure(WireError(.noSuchMatch, "There is no match named \"\(name)\"."))
        }
        return .success(.watch(room))
    }

    private func resuming(token: String, request: JoinRequest) -> Result<Seating, WireError> {
        guard let place = seatsByToken[token], let room = rooms[place.match],
              request.match == nil || request.match == place.match else {
            return .failure(WireError(.badToken, "That seat token is not valid here; join without it to take a new seat."))
        }
        // A live seat changes hands only when asked: two clients sharing a token (two terminals
        // of one user) must not throw each other out by accident.
        if !request.takeOver, let owner = room.host.seats[place.seat.rawValue], owner.connection != nil {
            return .failure(WireError(.seatInUse, "\(owner.name) is still connected in this seat; join with \"takeOver\":true to take it over.",
                                      details: ["seat": .int(Int64(place.seat.rawValue))]))
        }
        return .success(.resume(room, place.seat, token: token))
    }

    private func findOrCreate(_ request: JoinRequest, address: String) -> Result<MatchRoom, WireError> {
        if let name = request.match {
            if let room = rooms[name] {
                let host = room.host
                guard host.mode == request.mode else {
                    return .failure(WireError(.modeMismatch, "Match \"\(name)\" is a \(host.mode.rawValue) match, not \(request.mode.rawValue)."))
                }
                if let asked = request.variant, asked != host.variant {
                    return .failure(WireError(.variantMismatch, "Match \"\(name)\" plays \(host.variant.title), not \(asked.title).",
                                              details: ["variant": .string(host.variant.rawValue)]))
                }
                return .success(room)
            }
            if let refusal = refusal(creatingFor: address, mode: request.mode, named: name) { return .failure(refusal) }
            let created = create(name: name, mode: request.mode, variant: request.variant ?? .classic, by: address)
            // The duel a node's store decided an unnamed player waits in pairs this node's next ones too.
            if request.mode == .duel, isPairingName(name), case .success(let room) = created { openDuels[room.host.variant] = name }
            return created
        }
        // Pairing seats a newcomer only with someone who is there to play, in the variant asked for.
        let variant = request.variant ?? .classic
        if request.mode == .duel, let room = pairableDuel(variant) { return .success(room) }
        if let refusal = refusal(creatingFor: address, mode: request.mode) { return .failure(refusal) }
        let created = create(name: uniqueName(request.mode.rawValue), mode: request.mode, variant: variant, by: address)
        if request.mode == .duel, case .success(let room) = created { openDuels[variant] = room.host.name }
        return created
    }

    /// Why `address` may not create another match, if it may not: the server is full, or this
    /// address holds its share of the matches, or of the duels waiting for a player. A door bot
    /// duel waits for no player: only the door's own bot may sit there (`JoinFlow.botMatchRefusal`),
    /// once its player presses a key. It counts among the matches, never among the waiting duels,
    /// so players behind one address (a classroom, a NAT) may each sit at a bot duel's start box.
    private func refusal(creatingFor address: String, mode: Mode, named name: String? = nil) -> WireError? {
        guard hasRoom else { return tooManyMatches }
        let mine = createdBy[address] ?? []
        if mine.count >= addressLimits.matches {
            return WireError(.addressLimit, "Your address has \(mine.count) live matches, the most one address may hold; finish one first.")
        }
        let unattended = mine.count { rooms[$0].map { !$0.host.hasPresentPlayer } ?? false }
        if unattended >= addressLimits.unattended {
            return WireError(.addressLimit, "Your address has \(unattended) matches whose players all left, the most one address may hold; "
                             + "go back to one with its seat token, or wait for one's seat wait to end.")
        }
        if mode == .duel, !(name.map(DoorAttestation.isBotMatch) ?? false) {
            let waiting = mine.count { rooms[$0]?.host.phase == .waiting && !DoorAttestation.isBotMatch($0) }
            if waiting >= addressLimits.waitingMatches {
                return WireError(.addressLimit, "Your address has \(waiting) duels waiting for a player, the most one address may hold.")
            }
        }
        return nil
    }

    /// Whether another match may be created.
    var hasRoom: Bool { rooms.count < maxMatches }

    /// A new match; with journals, only if its journal could be started (a full disk refuses it).
    private func create(name: String, mode: Mode, variant: Variant, by address: String) -> Result<MatchRoom, WireError> {
        let host = MatchHost(name: name, mode: mode, variant: variant, settings: settings, seatWaitMs: seatWaitMs,
                             spectatorAnnounceMs: spectatorAnnounceMs)
        let room = MatchRoom(host: host, nextSeed: nextSeed)
        room.awaitsRecords = awaitsRecords
        if let journals {
            guard let journal = journals.create(for: room) else { return .failure(MatchHost.journalStalled) }
            room.journal = journal
        }
        rooms[name] = room
        changes += 1
        creator[name] = address
        createdBy[address, default: []].insert(name)
        return .success(room)
    }

    private var tooManyMatches: WireError {
        WireError(.serverFull, "The server hosts \(maxMatches) matches already; join one of them or try later.")
    }

    private func uniqueName(_ mode: String) -> String {
        let prefix = node.map { "\(mode)-\($0)" } ?? mode
        repeat { created += 1 } while rooms["\(prefix)-\(created)"] != nil
        return "\(prefix)-\(created)"
    }

    /// Forgets a match its last outcome found idle (`MatchRoom.idleness`): an abandoned one with
    /// its file, a finished one's journal kept under `finished/`.
    func remove(_ room: MatchRoom, _ idleness: Idleness) {
        let host = room.host
        guard idleness != .inUse, rooms[host.name] === room else { return }
        rooms[host.name] = nil
        changes += 1
        if reservedMatches[host.name]?.unclaimedUntil != nil { reservedMatches[host.name] = nil }
        if idleness == .abandoned { journals?.discard(room) } else { journals?.retire(room) }
        for state in host.seats.compactMap({ $0 }) { seatsByToken[state.token] = nil }
        if openDuels[host.variant] == host.name { openDuels[host.variant] = nil }
        if let address = creator.removeValue(forKey: host.name) {
            createdBy[address]?.remove(host.name)
            if createdBy[address]?.isEmpty == true { createdBy[address] = nil }
        }
    }

    /// Frees a match a join made and then was refused in (the store refused its account or its
    /// name, or its connection closed meanwhile), unless someone came or a seat is held: nobody
    /// else made it, and it holds nothing to wait for.
    func releaseIfUnused(_ room: MatchRoom) {
        guard room.isEmpty, room.idleness == .abandoned else { return }
        remove(room, .abandoned)
    }

    /// Forgets reservations for one occasion whose match nobody made in time (`ReservedMatch.unclaimedUntil`).
    func dropLapsedReservations(at now: Instant) {
        // Asked every sweep: the kept file is rewritten only when one lapsed.
        guard reservedMatches.contains(where: { $0.value.lapsed(at: now, made: rooms[$0.key] != nil) }) else { return }
        reservedMatches = reservedMatches.filter { !$0.value.lapsed(at: now, made: rooms[$0.key] != nil) }
    }

    /// Retires matches nobody has been connected to for `seatWaitMs` that are not being played:
    /// restored ones whose players never came back (live ones go as soon as they are empty).
    func retireAbandoned(at now: Instant) {
        for room in rooms.values where room.isEmpty && room.host.phase != .playing
            && now.milliseconds(since: room.host.lastActivity) > seatWaitMs {
            remove(room, room.keptForTokens && room.host.phase == .waiting ? .abandoned : room.idleness)
        }
    }

    /// One page of the match list, as a whole line; `elsewhere`: other nodes' matches.
    func listLine(after cursor: MatchList.Key?, limit: Int, id: JSONValue?, at now: Instant, elsewhere: [MatchListing] = []) -> [UInt8] {
        list.line(after: cursor, limit: limit, id: id, at: now, elsewhere: elsewhere) { Array(rooms.values) }
    }

    // MARK: Nodes

    /// Whether a join is answered by this server alone, without asking where its match lives: a
    /// match or seat token it holds, a reserved match, a solo game, or a duel it can pair now.
    func holdsHere(_ request: JoinRequest) -> Bool {
        if let token = request.token { return seatsByToken[token] != nil || reservation(of: token) != nil || request.match == nil }
        if let name = request.match { return rooms[name] != nil || reservedMatches[name] != nil }
        guard request.role == .player, request.mode == .duel else { return true }
        return pairableDuel(request.variant ?? .classic) != nil
    }

    /// The match a seat token here belongs to.
    func matchName(ofToken token: String) -> String? { seatsByToken[token]?.match }

    /// Whether `name` is one this node gives the duels it makes for players who name no match
    /// ("duel-a-3" on node `a`): a join naming one that cannot seat them is paired afresh.
    func isPairingName(_ name: String) -> Bool {
        guard let node, reservedMatches[name] == nil else { return false }
        let prefix = "duel-\(node)-"
        guard name.hasPrefix(prefix) else { return false }
        let number = name.dropFirst(prefix.count)
        return !number.isEmpty && number.allSatisfy { $0 >= "0" && $0 <= "9" }
    }

    /// A fresh name for a duel this node makes for a player who named no match.
    func newDuelName() -> String { uniqueName(Mode.duel.rawValue) }

    /// Whether an unnamed player of `variant` would be paired here now, without the store.
    func hasOpenDuel(_ variant: Variant) -> Bool { pairableDuel(variant) != nil }

    /// Whether the duel named `name` waits here for a second player who may sit now. A duel
    /// nobody sits in yet is not made: its first seat is being taken (an account written first).
    func pairingState(of name: String) -> WaitingRows.DuelState {
        guard let room = rooms[name], room.host.seats.contains(where: { $0 != nil }) else { return .absent }
        let host = room.host
        let open = host.mode == .duel && host.phase == .waiting && host.seats.contains(where: { $0 == nil }) && host.hasPresentPlayer
        return open ? .open : .closed
    }
}
