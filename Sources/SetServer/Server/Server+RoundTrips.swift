import SetRules
import SetWire

// The server's own measurement of its duel players' round trips, for lag compensation: it pings
// them itself and times the pongs on its own clock.
extension Server {
    /// Sends a ping stamped with the server's time; with compensation on it asks for a pong,
    /// and is remembered so only that pong can answer it. Off, it is the keep-alive ping it was.
    func ping(_ connection: Connection, at now: Instant) {
        let measuring = config.lagCompensationMs > 0
        if measuring { connection.roundTrips.pinged(at: now) }
        send(.ping(time: now.milliseconds, echo: measuring), to: connection)
    }

    /// Pings a duel player for a fresh round trip when one is due; nothing with compensation off.
    func measureRoundTrip(of connection: Connection, at now: Instant) {
        guard config.lagCompensationMs > 0, case .player(let room, _) = connection.session, room.host.mode == .duel,
              connection.roundTrips.pingDue(at: now) else { return }
        ping(connection, at: now)
    }

    /// Pings the duel players of one slice whose round trip is due a fresh sample.
    func measureRoundTrips(slot: Int, at now: Instant) {
        for connection in connections.inSlot(slot) { measureRoundTrip(of: connection, at: now) }
    }

    /// What a claim race in `room` may use now: the cap and each seat's median round trip.
    func claimLag(in room: MatchRoom) -> ClaimLag {
        guard config.lagCompensationMs > 0 else { return .off }
        let roundTrips = room.host.seats.map { seat in seat?.connection.flatMap { connections[$0]?.roundTrips.medianMs } ?? 0 }
        return ClaimLag(capMs: config.lagCompensationMs, roundTripMs: roundTrips)
    }

    /// Tells the duels of this turn's slice their players' round trips when they changed and no
    /// pong told it yet (a seat emptied, a game begun): every duel once a second, a hundredth of
    /// them at each 10 ms turn of the pings. All of them in the second's sweep took the loop 1 ms
    /// at 1,000 duels (a question arriving then waited for it), and performing an outcome for
    /// every duel in one turn, as it once did, stalled every connection's input (p99 ×15).
    func announceRoundTrips(at now: Instant) {
        guard config.lagCompensationMs > 0 else { return }
        for name in timers.roundTripSlice(of: { Array(lobby.rooms.keys) }) {
            guard let room = lobby.rooms[name] else { continue }
            announceRoundTrips(in: room, at: now)
        }
    }

    /// Tells the duel `connection` plays in its players' round trips if the pong just read moved
    /// them: spread over the pongs as they come, where the sweep told every duel whose round
    /// trips a stall had moved in one burst a second (thousands of lines at once, which stalled
    /// the loop again).
    func announceRoundTrips(of connection: Connection, at now: Instant) {
        guard config.lagCompensationMs > 0, case .player(let room, _) = connection.session else { return }
        announceRoundTrips(in: room, at: now)
    }

    private func announceRoundTrips(in room: MatchRoom, at now: Instant) {
        guard room.host.mode == .duel && room.host.phase == .playing else { return }
        let ms = roundTrips(in: room)
        guard room.host.roundTripsMoved(ms) else { return }
        apply(room.announceRoundTrips(ms, at: now), of: room)
    }

    /// Each seat's smoothed round trip, for scoreboards; nil where unmeasured.
    func roundTrips(in room: MatchRoom) -> [Int64?] {
        room.host.seats.map { seat in seat?.connection.flatMap { connections[$0]?.roundTrips.smoothedMs } }
    }
}
