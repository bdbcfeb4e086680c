import SetRules
import SetWire

/// Rebuilding a match from its journal: the records are fed through a host exactly as the live
/// server fed them, with the seeds the journal recorded.
enum JournalReplay {
    struct Mismatch: Error, CustomStringConvertible {
        var description: String
    }

    /// Seats replay with stand-in connections; they are marked away at the end.
    static func standIn(_ seat: Seat) -> ConnectionID { -1 - seat.rawValue }

    /// Marks every seat still connected away, keeping windows: what a restart does.
    private static func markAway(_ host: MatchHost, at instant: Instant) -> (seats: [Seat], deliveries: [Delivery]) {
        var seats: [Seat] = [], deliveries: [Delivery] = []
        for seat in host.mode.seats where host.seats[seat.rawValue]?.connection != nil {
            deliveries += host.disconnect(standIn(seat), at: instant, keepingWindow: true)
            seats.append(seat)
        }
        return (seats, deliveries)
    }

    /// Replays `records` (an array, or `JournalRecords` reading a checked file again on each pass);
    /// the result is paused with every seat away, as after a restart.
    /// `observe` sees every delivery, in order (for `setgame replay`).
    /// `markedAway` gets the seats the replay itself marked away at the end (their players were
    /// connected when the server stopped): a host that goes on must journal those aways, since they
    /// are numbered events too.
    static func host(from records: some Sequence<JournalRecord>, seatWaitMs: Int64, markedAway: inout [Seat],
                     observe: (Delivery) -> Void = { _ in }) throws(Mismatch) -> MatchHost {
        guard case .header(let name, let mode, let rules) = records.first(where: { _ in true }) else { throw Mismatch(description: "no header") }
        var seeds = records.compactMap { if case .game(_, let seed, _, _) = $0 { seed } else { nil } }[...]
        var dealtUnrecorded = false
        let host = MatchHost(name: name, mode: mode, settings: rules, seatWaitMs: seatWaitMs) {
            guard let seed = seeds.popFirst() else {
                dealtUnrecorded = true
                return 0
            }
            return seed
        }
        var last = Instant.zero
        for (index, record) in records.enumerated().dropFirst() {
            let deliveries: [Delivery]
            switch record {
            case .header: throw Mismatch(description: "record \(index + 1): a second header")
            case .seated(let seat, let player, let token, let at):
                switch host.seatPlayer(name: player, token: token, connection: standIn(seat), requested: seat, at: at) {
                case .success(let (_, seated)): deliveries = seated
                case .failure(let error): throw Mismatch(description: "record \(index + 1): \(error.message)")
                }
            case .game(let number, _, let commitment, _):
                guard host.game == number, host.commitment == commitment else {
                    throw Mismatch(description: "record \(index + 1): game \(number) was not dealt here")
                }
                deliveries = []
            case .acted(let seat, let action, _, let at):
                let (acted, refusal) = host.act(action, by: seat, at: at)
                if let refusal { throw Mismatch(description: "record \(index + 1): \(action.name) refused: \(refusal.code.rawValue)") }
                deliveries = acted
            case .away(let seat, let at): deliveries = host.disconnect(standIn(seat), at: at)
            case .back(let seat, let at): deliveries = host.resume(seat, on: standIn(seat), at: at).1
            case .tick(_, let at): deliveries = host.advance(to: at)
            case .watchers(let count, _, let at): deliveries = host.replaySpectators(count, at: at)
            case .stalled(let at):
                host.beginStall(at: at)
                deliveries = []
            case .unstalled(_, let at): deliveries = host.endStall(at: at)
            case .restarted(let at): deliveries = markAway(host, at: at).deliveries
            }
            if dealtUnrecorded { throw Mismatch(description: "record \(index + 1): dealt a game whose seed the journal does not hold") }
            // Every numbered record says how far the events had got: a replay that numbers them
            // differently has diverged, and its history could not be trusted by a resuming client.
            if let expected = record.seq, host.seq != expected {
                throw Mismatch(description: "record \(index + 1): events numbered to \(host.seq), the journal says \(expected)")
            }
            deliveries.forEach(observe)
            last = max(last, record.instant ?? last)
        }
        markedAway += markAway(host, at: last).seats
        host.lastActivity = last
        // New games are dealt from the server's seeds, never from anything the journal implies.
        // The server that adopts the match hands it its own source; until then, unpredictable ones.
        host.nextSeed = {
            var generator = SystemRandomNumberGenerator()
            return generator.next()
        }
        return host
    }
}
