import SetRules
import SetWire

/// All matches on the server by name, the pairing of players who name no match, and the seat
/// tokens that let a player resume.
final class Lobby {
    /// Where a join put a connection.
    struct Placement {
        var room: MatchRoom
        var role: Role
        var seat: Seat?
        var token: String?
        /// A connection that held this seat before and must now be closed.
        var replaced: ConnectionID?
        /// Whether a seat token brought the player back to a seat they held.
        var resumed = false
        var deliveries: [Delivery]
    }

    private(set) var rooms: [String: MatchRoom] = [:]
    private var seatsByToken: [String: (match: String, seat: Seat)] = [:]
    /// The duel of each variant that pairs the next player who names no match.
    private var openDuels: [Variant: String] = [:]
    private var created = 0
    let settings: RuleSettings
    let seatWaitMs: Int64
    let nextSeed: () -> UInt64
    let journals: JournalDirectory?
    let maxMatches: Int
    /// What one address may hold, and the matches each address created that still live.
    var addressLimits = AddressLimits(connections: .max, matches: .max, waitingMatches: .max, connectsPerSecond: .max)
    private var creator: [String: String] = [:]
    private var createdBy: [String: Set<String>] = [:]
    /// Spectators of matches freed before they began: the server tells them and lets them go.
    private(set) var released: [ConnectionID] = []
    var spectatorAnnounceMs: Int64 = 1_000
    /// Matches whose seats only their tokens may take (`ServerConfig.reservedMatches`).
    var reservedMatches: [String: ReservedMatch] = [:]
    let list: MatchList

    init(settings: RuleSettings, seatWaitMs: Int64, maxMatches: Int, journals: JournalDirectory?, listCacheMs: Int64 = 0,
         nextSeed: @escaping () -> UInt64) {
        self.maxMatches = maxMatches
        self.settings = settings
        self.seatWaitMs = seatWaitMs
        self.journals = journals
        self.nextSeed = nextSeed
        list = MatchList(cacheMs: listCacheMs)
    }

    /// The spectators `released` since the last call.
    func takeReleased() -> [ConnectionID] {
        defer { released.removeAll() }
        return released
    }

    /// Takes in matches replayed from their journals after a restart.
    func adopt(_ restored: [MatchRoom]) {
        for room in restored {
            let host = room.host
            rooms[host.name] = room
            room.nextSeed = nextSeed  // its later games are dealt exactly as a fresh match's would be
            for seat in host.mode.seats {
                if let token = host.seats[seat.rawValue]?.token { seatsByToken[token] = (host.name, seat) }
            }
        }
    }

    /// On shutdown: finished matches' journals go to `finished/`, the rest are synced for the restart.
    func closeJournals() {
        for room in rooms.values {
            if room.host.phase == .playing { room.journal?.close() } else { journals?.retire(room) }
        }
    }

    /// Writes journals' pending lines to disk, and tries again to write those of stalled matches:
    /// returns what the matches that go on again say. The log hears of a stall once at its start
    /// (see `noteStalls`) and once at its end.
    func syncJournals(at now: Instant, log: ServerLog) -> [(MatchRoom, [Delivery])] {
        var resumed: [(MatchRoom, [Delivery])] = []
        for room in rooms.values {
            guard let journal = room.journal else { continue }
            let name = room.host.name
            if room.host.stalledAt != nil {
                if !room.stallReported {
                    room.stallReported = true
                    log("journal of \(name) cannot be written (\(journal.failure ?? "write failed")): the match is paused until it can")
                }
                guard let deliveries = room.retryJournal(at: now) else { continue }
                log("journal of \(name) is written again: the match goes on")
                resumed.append((room, deliveries))
            } else {
                journal.sync()
            }
        }
        return resumed
    }

    func join(_ request: JoinRequest, connection: ConnectionID, address: String = "", at now: Instant) -> Result<Placement, WireError> {
        if request.role == .spectator { return watch(request, connection: connection, at: now) }
        var request = request
        var reserved: String?
        if let held = request.token, seatsByToken[held] == nil,
           let (name, match) = reservedMatches.first(where: { $0.value.tokens.contains(held) }) {
            // The first join with a reserved token takes a seat in its match under that very token
            // (a client sends a token without the match it names, as a resume).
            (request.match, request.mode, request.variant) = (name, match.mode, match.variant)
            reserved = held
        } else if let token = request.token {
            return resume(token: token, request: request, connection: connection, at: now)
        } else if let name = request.match, reservedMatches[name] != nil {
            return .failure(WireError(.matchFull, "Match \"\(name)\" is private: its seats are kept for the players it was started for."))
        }
        let room: MatchRoom
        switch findOrCreate(request, address: address) {
        case .success(let found): room = found
        case .failure(let error): return .failure(error)
        }
        let token = reserved ?? SeatToken.make()
        let outcome = room.perform(.join(name: request.name, token: token, connection: connection, seat: request.seat), at: now)
        switch outcome.reply {
        case .refused(let error):
            // A refused seat tells nobody, not even of a stall its journal record caused: the
            // players waiting saw no change, and the match goes on by itself once writes work.
            removeIfIdle(room)
            return .failure(error)
        case .seated(let seat):
            let host = room.host
            seatsByToken[token] = (host.name, seat)
            if openDuels[host.variant] == host.name && host.phase != .waiting { openDuels[host.variant] = nil }
            return .success(Placement(room: room, role: .player, seat: seat, token: token, replaced: nil, deliveries: outcome.deliveries))
        case .none, .resumed, .accepted:
            preconditionFailure("a join is answered with a seat or a refusal")
        }
    }

    private func watch(_ request: JoinRequest, connection: ConnectionID, at now: Instant) -> Result<Placement, WireError> {
        guard let name = request.match else {
            return .failure(WireError(.missingField, "\"match\" is required to watch: send {\"type\":\"list\"} to see the live matches.",
                                      details: ["field": "match"]))
        }
        guard let room = rooms[name] else {
            return .failure(WireError(.noSuchMatch, "There is no match named \"\(name)\"."))
        }
        return .success(Placement(room: room, role: .spectator, seat: nil, token: nil, replaced: nil,
                                  deliveries: room.watch(connection, at: now)))
    }

    private func resume(token: String, request: JoinRequest, connection: ConnectionID, at now: Instant) -> Result<Placement, WireError> {
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
        let outcome = room.perform(.resume(place.seat, connection: connection), at: now)
        guard case .resumed(let replaced) = outcome.reply else { preconditionFailure("a resume is answered with the seat's last connection") }
        return .success(Placement(room: room, role: .player, seat: place.seat, token: token, replaced: replaced,
                                  resumed: true, deliveries: outcome.deliveries))
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
            if let refusal = refusal(creatingFor: address, mode: request.mode) { return .failure(refusal) }
            return create(name: name, mode: request.mode, variant: request.variant ?? .classic, by: address)
        }
        // Pairing seats a newcomer only with someone who is there to play, in the variant asked for.
        let variant = request.variant ?? .classic
        if request.mode == .duel, let name = openDuels[variant], let room = rooms[name], room.host.phase == .waiting,
           room.host.seats.contains(where: { $0 == nil }), room.host.hasPresentPlayer {
            return .success(room)
        }
        if let refusal = refusal(creatingFor: address, mode: request.mode) { return .failure(refusal) }
        let created = create(name: uniqueName(request.mode.rawValue), mode: request.mode, variant: variant, by: address)
        if request.mode == .duel, case .success(let room) = created { openDuels[variant] = room.host.name }
        return created
    }

    /// Why `address` may not create another match, if it may not: the server is full, or this
    /// address holds its share of the matches, or of the duels waiting for a player.
    private func refusal(creatingFor address: String, mode: Mode) -> WireError? {
        guard hasRoom else { return tooManyMatches }
        let mine = createdBy[address] ?? []
        if mine.count >= addressLimits.matches {
            return WireError(.addressLimit, "Your address has \(mine.count) live matches, the most one address may hold; finish one first.")
        }
        if mode == .duel {
            let waiting = mine.count { rooms[$0]?.host.phase == .waiting }
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
        if let journals {
            guard let journal = journals.create(for: room) else { return .failure(MatchHost.journalStalled) }
            room.journal = journal
        }
        rooms[name] = room
        creator[name] = address
        createdBy[address, default: []].insert(name)
        return .success(room)
    }

    private var tooManyMatches: WireError {
        WireError(.serverFull, "The server hosts \(maxMatches) matches already; join one of them or try later.")
    }

    private func uniqueName(_ prefix: String) -> String {
        repeat { created += 1 } while rooms["\(prefix)-\(created)"] != nil
        return "\(prefix)-\(created)"
    }

    /// A connection left its match.
    func leave(_ room: MatchRoom, connection: ConnectionID, at now: Instant) -> [Delivery] {
        let deliveries = room.leave(connection, at: now)
        removeIfIdle(room)
        return deliveries
    }

    /// Forgets a match nobody is connected to unless it is being played (its players may resume).
    /// A match in which nobody ever moved goes as soon as no player is present: spectators do not
    /// keep it, its absent players' seats are not worth a seat wait, and it leaves no journal.
    func removeIfIdle(_ room: MatchRoom) {
        let host = room.host
        guard rooms[host.name] === room else { return }
        let abandoned = !host.hasMove && !host.hasPresentPlayer
        guard abandoned || (room.isEmpty && host.phase != .playing) else { return }
        rooms[host.name] = nil
        released += room.releaseSpectators()
        if abandoned { journals?.discard(room) } else { journals?.retire(room) }
        for state in host.seats.compactMap({ $0 }) { seatsByToken[state.token] = nil }
        if openDuels[host.variant] == host.name { openDuels[host.variant] = nil }
        if let address = creator.removeValue(forKey: host.name) {
            createdBy[address]?.remove(host.name)
            if createdBy[address]?.isEmpty == true { createdBy[address] = nil }
        }
    }

    /// Retires matches nobody has been connected to for `seatWaitMs` that are not being played:
    /// restored ones whose players never came back (live ones go as soon as they are empty).
    func retireAbandoned(at now: Instant) {
        for room in rooms.values where room.isEmpty && room.host.phase != .playing
            && now.milliseconds(since: room.host.lastActivity) > seatWaitMs {
            removeIfIdle(room)
        }
    }

    /// One page of the match list, as a whole line.
    func listLine(after cursor: MatchList.Key?, limit: Int, id: JSONValue?, at now: Instant) -> [UInt8] {
        list.line(after: cursor, limit: limit, id: id, at: now) { Array(rooms.values) }
    }
}
