import SetRules
import SetWire

/// A journal read back for people: the events it produces, and whether each revealed seed keeps
/// the promise its commitment made. The file is streamed, never held whole: one pass checks every
/// record and notes the games, a second replays them, handing out each event as it happens.
package struct MatchReplay: Sendable {
    package struct Game: Sendable, Equatable {
        package var number: Int
        package var seed: UInt64
        package var commitment: String
        /// SHA-256 of "setgame:<seed>" equals the commitment published at the start.
        package var seedMatchesCommitment: Bool
        /// The first table this seed deals in the match's variant: the replay checks that the
        /// table shown at the game's start is this one.
        package var dealtTable: [Card]

        /// Whether `shown`, the table the game started with, is the one its seed deals.
        package func deals(_ shown: [Card]) -> Bool { shown == dealtTable }
    }

    package let path: String
    package let name: String
    package let mode: Mode
    package let variant: Variant
    package let rules: RuleSettings
    package let games: [Game]
    /// The time of the journal's last record (the server's clock, ms): written when the file was
    /// last modified, which ties the journal's times to the wall clock.
    package var lastMs: Int64? = nil

    package struct Failure: Error, CustomStringConvertible {
        package var description: String
    }

    /// Checks the journal at `path`, every record, without changing it or holding it in memory.
    package static func open(_ path: String) throws(Failure) -> MatchReplay {
        var header: (name: String, mode: Mode, rules: RuleSettings, variant: Variant)?
        var games: [Game] = []
        var lastMs: Int64?
        do {
            _ = try JournalStream(path: path).forEach { _, record in
                if let at = record.instant?.milliseconds { lastMs = max(lastMs ?? at, at) }
                switch record {
                case .header(let name, let mode, let rules, let variant): header = (name, mode, rules, variant)
                case .game(let number, let seed, let commitment, _):
                    let dealt = header.map { Match(mode: $0.mode, variant: $0.variant, seed: seed, at: .zero).table } ?? []
                    games.append(Game(number: number, seed: seed, commitment: commitment,
                                      seedMatchesCommitment: SeedCommitment.verify(seed: seed, against: commitment),
                                      dealtTable: dealt))
                default: break
                }
            }
        } catch { throw Failure(description: "\(path): \(error)") }
        guard let header else { throw Failure(description: "\(path): record 1: no match header") }
        return MatchReplay(path: path, name: header.name, mode: header.mode, variant: header.variant, rules: header.rules, games: games,
                           lastMs: lastMs)
    }

    /// Replays the match, calling `onEvent` with each event as the host produces it (presence
    /// changes left out), `onChat` with each chat line where it was said, and `onNote`, at its
    /// instant (server milliseconds), with why each claim race under lag compensation went the
    /// way it did; throws, with the record number, where the journal and the rules part.
    package func play(
        _ onEvent: (WireEvent) -> Void, onChat: (ChatLine) -> Void = { _ in }, onNote: (Int64, String) -> Void = { _, _ in }
    ) throws(Failure) {
        // A hint is numbered once but sent twice: without its cards to the others, then with them
        // to the player who paid. The replay shows the whole of it, so an event is handed on only
        // once the next number comes.
        var held: WireEvent?
        var names = mode.seats.map { "player \($0.rawValue + 1)" }
        func handOn(_ event: WireEvent) {
            if case .playerJoined(let seat, let name, _, _) = event.body, names.indices.contains(seat.rawValue) { names[seat.rawValue] = name }
            if case .presence = event.body { return }
            onEvent(event)
        }
        do {
            // Forfeits happen only where the journal has a tick for them; a year of wait never fires on its own.
            _ = try JournalReplay.host(from: JournalRecords(path: path), seatWaitMs: 365 * 86_400_000) { output in
                for message in output.messages {
                    let event: WireEvent
                    switch message {
                    case .event(let told, _), .hint(let told, _): event = told
                    // A held line was shown where it was said; its delivery at the game's end is no new line.
                    case .insight, .notice, .answer, .roundTrips, .heldChat: continue
                    case .chat(let line, _):
                        // Said after the event held back, and before the next one.
                        if let previous = held { handOn(previous) }
                        held = nil
                        onChat(line)
                        continue
                    }
                    if let previous = held, previous.seq != event.seq { handOn(previous) }
                    held = event
                }
            } races: { race, at in
                if let previous = held { handOn(previous) }
                held = nil
                onNote(at.milliseconds, ReplayText.describe(race, names: names))
            }
        } catch { throw Failure(description: "\(path): \(error)") }
        if let held { handOn(held) }
    }

    /// Checks and replays the journal at `path`, collecting its events.
    package static func load(_ path: String) throws(Failure) -> (replay: MatchReplay, events: [WireEvent]) {
        let replay = try open(path)
        var events: [WireEvent] = []
        try replay.play { events.append($0) }
        return (replay, events)
    }
}
