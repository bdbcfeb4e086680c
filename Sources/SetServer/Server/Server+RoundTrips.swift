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

    /// Tells each duel in play its players' round trips when they changed.
    func announceRoundTrips(at now: Instant) {
        guard config.lagCompensationMs > 0 else { return }
        for room in lobby.rooms.values where room.host.mode == .duel && room.host.phase == .playing {
            // Most rooms' round trips have not moved: each sweep must not perform an outcome for
            // every duel on the server, which stalled every connection's input (p99 ×15).
            let ms = roundTrips(in: room)
            guard room.host.roundTripsMoved(ms) else { continue }
            apply(room.announceRoundTrips(ms, at: now), of: room)
        }
    }

    /// Each seat's smoothed round trip, for scoreboards; nil where unmeasured.
    func roundTrips(in room: MatchRoom) -> [Int64?] {
        room.host.seats.map { seat in seat?.connection.flatMap { connections[$0]?.roundTrips.smoothedMs } }
    }
}
