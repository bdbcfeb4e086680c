import SetRules
import SetWire

/// A journal read back for people: the events it produces, and whether each revealed seed keeps
/// the promise its commitment made.
public struct MatchReplay: Sendable {
    public struct Game: Sendable, Equatable {
        public var number: Int
        public var seed: UInt64
        public var commitment: String
        /// SHA-256 of "setgame:<seed>" equals the commitment published at the start.
        public var seedMatchesCommitment: Bool
    }

    public let name: String
    public let mode: Mode
    public let rules: RuleSettings
    public let games: [Game]
    public let events: [WireEvent]

    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    /// Replays the journal at `path` without changing it.
    public static func load(_ path: String) throws(Failure) -> MatchReplay {
        let contents: JournalFile.Contents
        do { contents = try JournalFile.read(path, repair: false) } catch { throw Failure(description: "\(path): \(error)") }
        var events: [WireEvent] = []
        let host: MatchHost
        do {
            var markedAway: [Seat] = []
            // Forfeits happen only where the journal has a tick for them; a year of wait never fires on its own.
            host = try JournalReplay.host(from: contents.records, seatWaitMs: 365 * 86_400_000, markedAway: &markedAway) { delivery in
                guard case .success(.event(let event)) = ServerMessageCoding.decode(Array(delivery.bytes.dropLast())) else { return }
                // A hint is numbered once but sent twice: without its cards to the others, then
                // with them to the player who paid. The replay shows the whole of it.
                if events.last?.seq == event.seq { events[events.count - 1] = event } else { events.append(event) }
            }
        } catch { throw Failure(description: "\(path): \(error)") }
        let games = contents.records.compactMap { record -> Game? in
            guard case .game(let number, let seed, let commitment, _) = record else { return nil }
            return Game(number: number, seed: seed, commitment: commitment,
                        seedMatchesCommitment: SeedCommitment.verify(seed: seed, against: commitment))
        }
        return MatchReplay(name: host.name, mode: host.mode, rules: host.settings, games: games,
                           events: events.filter { if case .presence = $0.body { false } else { true } })
    }
}
