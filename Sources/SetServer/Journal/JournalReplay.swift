import SetRules
import SetWire

/// Rebuilding a match from its journal: each record is the input it was for the live host, fed
/// through a host exactly as the live server fed it, with the seeds the journal recorded.
enum JournalReplay {
    struct Mismatch: Error, CustomStringConvertible {
        var description: String
    }

    /// Seats replay with stand-in connections; a restart marks those still connected away.
    static func standIn(_ seat: Seat) -> ConnectionID { -1 - seat.rawValue }

    /// Replays `records` (an array, or `JournalRecords` reading a checked file again on each pass).
    /// `observe` sees what each record's input produced, in order (`setgame replay` takes its
    /// events). The host is as the journal leaves it: seats whose players were connected when
    /// the server stopped are still held by stand-ins, for a restart (`HostInput.restart`) to
    /// mark away, journaled, since their presence events are numbered too.
    static func host(from records: some Sequence<JournalRecord>, seatWaitMs: Int64, spectatorAnnounceMs: Int64 = 1_000,
                     observe: (HostOutput<HostReply>) -> Void = { _ in },
                     races: (RaceDecision, Instant) -> Void = { _, _ in }) throws(Mismatch) -> MatchHost {
        guard case .header(let name, let mode, let rules, let variant) = records.first(where: { _ in true }) else { throw Mismatch(description: "no header") }
        var seeds = records.compactMap { if case .game(_, let seed, _, _) = $0 { seed } else { nil } }[...]
        var dealtUnrecorded = false
        var host = MatchHost(name: name, mode: mode, variant: variant, settings: rules, seatWaitMs: seatWaitMs,
                             spectatorAnnounceMs: spectatorAnnounceMs)
        var last = Instant.zero
        for (index, record) in records.enumerated().dropFirst() {
            func mismatch(_ description: String) -> Mismatch { Mismatch(description: "record \(index + 1): \(description)") }
            if case .game(let number, _, let commitment, _) = record {
                guard host.game == number, host.commitment == commitment else { throw mismatch("game \(number) was not dealt here") }
                last = max(last, record.instant ?? last)
                continue
            }
            if case .race(let race, let at) = record {  // what decided a claim race: the `acted` record is the input
                races(race, at)
                continue
            }
            guard let input = input(for: record), let at = record.instant else { throw mismatch("a second header") }
            let output = host.handle(input, at: at) {
                guard let seed = seeds.popFirst() else {
                    dealtUnrecorded = true
                    return 0
                }
                return seed
            }
            if case .refused(let error) = output.reply {
                if case .acted(_, let action, _, _) = record { throw mismatch("\(RequestType(action).rawValue) refused: \(error.code.rawValue)") }
                throw mismatch(error.message)
            }
            if dealtUnrecorded { throw mismatch("dealt a game whose seed the journal does not hold") }
            // Every numbered record says how far the events had got: a replay that numbers them
            // differently has diverged, and its history could not be trusted by a resuming client.
            if let expected = record.seq, host.seq != expected {
                throw mismatch("events numbered to \(host.seq), the journal says \(expected)")
            }
            observe(output)
            last = max(last, at)
        }
        host.lastActivity = last
        return host
    }

    /// The input a record was written for; nil for the header, which is no input.
    private static func input(for record: JournalRecord) -> HostInput? {
        switch record {
        case .header, .game, .race: nil
        case .seated(let seat, let name, let token, _, let account, let rating):
            .join(name: name, token: token, connection: standIn(seat), seat: seat, account: account, rating: rating)
        case .acted(let seat, let action, _, _): .act(action, by: seat)
        case .away(let seat, _): .leave(standIn(seat))
        case .back(let seat, _): .resume(seat, connection: standIn(seat))
        case .tick: .timers
        case .watchers(let count, _, _): .spectatorCount(count)
        case .stalled: .journalStalled
        case .unstalled: .journalWorks
        case .restarted: .restart
        case .chat(let room, let seat, let name, let text, _): .chat(room: room, by: seat.map(ChatSpeaker.seat) ?? .spectator(name: name), text: text)
        }
    }
}
