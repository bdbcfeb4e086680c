import SetRules
import SetWire

/// Who is listed in the lobby, and the challenges between them: one open challenge per
/// challenger, gone after `lifetimeMs` (`expire(at:)` hands them back to be announced), and at
/// most `allowance` made per `allowanceMs`. Times are the server's clock, passed in. It holds no
/// sockets: the server tells the people.
package final class Challenges {
    /// A connection listed in the lobby.
    struct Presence {
        var connection: ConnectionID
        var entry: LobbyEntry
        /// The name folded as accounts compare names (`PlayerName.skeleton`).
        var key: String
        var identity: PlayerIdentity
    }

    /// A challenge waiting for its answer.
    struct Open {
        var challenger: Presence
        var challengedKey: String
        var challengedName: String
        var variant: Variant
        var expiresAt: Instant
    }

    /// How long a challenge waits for its answer.
    package static let lifetimeMs: Int64 = 60_000
    /// At most this many challenges per challenger name within `allowanceMs`.
    package static let allowance = 3
    package static let allowanceMs: Int64 = 60_000
    /// The most connections listed at once, so the lobby's answer stays a page.
    static let listedAtMost = 200

    private(set) var present: [ConnectionID: Presence] = [:]
    /// Open challenges by their challenger's name key.
    private var open: [String: Open] = [:]
    /// When each challenger name made its recent challenges.
    private var made: [String: [Instant]] = [:]
    private var accepted = 0

    /// Lists a connection (again), refused when another identity is listed under the same name.
    func enter(_ presence: Presence) -> Result<Void, WireError> {
        if let other = present.values.first(where: { $0.key == presence.key && $0.connection != presence.connection }),
           other.identity != presence.identity || presence.identity == .guest {
            return .failure(WireError(.nameTaken, "Someone is in the lobby as \"\(other.entry.name)\" already; pick another name."))
        }
        if present[presence.connection] == nil && present.count >= Self.listedAtMost {
            return .failure(WireError(.serverFull, "The lobby is full; try again in a minute or join a match by name."))
        }
        present[presence.connection] = presence
        return .success(())
    }

    /// Drops the connections that closed or sat down somewhere, and what their names asked.
    func keep(only isListed: (ConnectionID) -> Bool) {
        for id in present.keys where !isListed(id) { present[id] = nil }
        let listed = Set(present.values.map(\.key))
        open = open.filter { listed.contains($0.key) && listed.contains($0.value.challengedKey) }
    }

    /// Everyone listed, by name.
    func entries() -> [LobbyEntry] {
        var seen: Set<String> = []
        return present.values.sorted { ($0.key, $0.connection) < ($1.key, $1.connection) }
            .filter { seen.insert($0.key).inserted }.map(\.entry)
    }

    /// The connections listed under a name key.
    func connections(named key: String) -> [ConnectionID] {
        present.values.filter { $0.key == key }.map(\.connection).sorted()
    }

    /// When the next open challenge expires; nil when none is open.
    var nextExpiry: Instant? { open.values.map(\.expiresAt).min() }

    /// Takes the challenges whose time is up at `now` off the books, oldest first, so both sides
    /// can be told; the allowance book forgets the names that made none lately.
    func expire(at now: Instant) -> [Open] {
        let expired = open.values.filter { $0.expiresAt.milliseconds <= now.milliseconds }
            .sorted { ($0.expiresAt, $0.challenger.key) < ($1.expiresAt, $1.challenger.key) }
        for gone in expired { open[gone.challenger.key] = nil }
        made = made.filter { $0.value.last.map { now.milliseconds - $0.milliseconds < Self.allowanceMs } ?? false }
        return expired
    }

    /// A new challenge from a listed connection to the player listed as `name`.
    func challenge(from connection: ConnectionID, to name: String, variant: Variant?, at now: Instant) -> Result<Open, WireError> {
        guard let challenger = present[connection] else { return .failure(Self.notListed) }
        let key = PlayerName.skeleton(name)
        if key == challenger.key { return .failure(WireError(.challengeSelf, "You cannot challenge yourself; name another player.")) }
        guard let challenged = present.values.first(where: { $0.key == key }) else {
            return .failure(WireError(.playerNotHere, "Nobody called \"\(name)\" is in the lobby now."))
        }
        if let pending = open[challenger.key] {
            return .failure(WireError(.challengeOpen, "Your challenge to \(pending.challengedName) is still open; wait for its answer.",
                                      details: ["expiresAt": .int(pending.expiresAt.milliseconds)]))
        }
        let recent = (made[challenger.key] ?? []).filter { now.milliseconds - $0.milliseconds < Self.allowanceMs }
        if recent.count >= Self.allowance, let first = recent.first {
            let wait = Self.allowanceMs - (now.milliseconds - first.milliseconds)
            return .failure(WireError(.challengeLimited, "That is \(Self.allowance) challenges in a minute; wait a little.",
                                      details: ["retryAfterMs": .int(wait)]))
        }
        made[challenger.key] = recent + [now]
        let made = Open(challenger: challenger, challengedKey: key, challengedName: challenged.entry.name,
                        variant: variant ?? challenger.entry.variant, expiresAt: Instant(milliseconds: now.milliseconds + Self.lifetimeMs))
        open[challenger.key] = made
        return .success(made)
    }

    /// Takes the open challenge from `name` to the listed `connection` off the books, to accept or decline it.
    func answer(by connection: ConnectionID, from name: String) -> Result<Open, WireError> {
        guard let answering = present[connection] else { return .failure(Self.notListed) }
        let key = PlayerName.skeleton(name)
        guard let found = open[key], found.challengedKey == answering.key else {
            return .failure(WireError(.noSuchChallenge, "\(name) has no open challenge for you: it was answered, withdrawn or it expired."))
        }
        open[key] = nil
        return .success(found)
    }

    /// A fresh name for an accepted challenge's match.
    func nextMatchName(isFree: (String) -> Bool) -> String {
        repeat { accepted += 1 } while !isFree("challenge-\(accepted)")
        return "challenge-\(accepted)"
    }

    private static let notListed = WireError(.notInLobby, "Come into the lobby first: {\"type\":\"lobby\",\"name\":\"you\"}.")
}
