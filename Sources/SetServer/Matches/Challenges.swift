import SetRules
import SetWire

/// How many connections the lobby lists at once, in all and from one address, so the lobby's
/// answer stays a page and one address cannot fill it for everyone else (`serve --lobby-size`,
/// `--lobby-per-address`).
package struct LobbySize: Sendable, Equatable {
    /// The most connections listed at once.
    package var cap = 200
    /// The most of them from one client address.
    package var perAddress = 20

    package init(cap: Int = 200, perAddress: Int = 20) {
        self.cap = cap
        self.perAddress = perAddress
    }
}

/// Who is listed in the lobby, and the challenges between them: one open challenge per
/// challenger connection, gone after `lifetimeMs` (`expire(at:)` hands them back to be
/// announced), and at most `allowance` made per `allowanceMs` from one client address. The
/// allowance is the address's, not the name's: re-entering under a new name refills nothing.
/// Times are the server's clock, passed in. It holds no sockets: the server tells the people.
package final class Challenges {
    /// A connection listed in the lobby.
    struct Presence {
        var connection: ConnectionID
        var entry: LobbyEntry
        /// The name folded as accounts compare names (`PlayerName.skeleton`).
        var key: String
        var identity: PlayerIdentity
        /// The client's address: its share of the lobby and its challenge allowance are counted by it.
        var address: String
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
    /// At most this many challenges from one client address within `allowanceMs`.
    package static let allowance = 3
    package static let allowanceMs: Int64 = 60_000

    /// The lobby's cap and each address's share of it.
    var size = LobbySize()
    private(set) var present: [ConnectionID: Presence] = [:]
    /// Open challenges by their challenger's connection.
    private var open: [ConnectionID: Open] = [:]
    /// When each client address made its recent challenges.
    private var made: [String: [Instant]] = [:]
    private var accepted = 0
    /// Moves whenever the list of who is here changes: the server pushes the list when it moved.
    private(set) var version = 0
    /// The skeletons of the names listed now.
    var listedKeys: Set<String> { Set(present.values.map(\.key)) }

    /// The `version` last pushed to the listed connections.
    var pushedVersion = 0
    /// How often the list may be pushed.
    var pace = PushPace()
    /// When a change not pushed yet may be, if one waits for its pace.
    func pushDue(at now: Instant) -> Instant? { version == pushedVersion ? nil : pace.nextAllowed(after: now) }
    /// On a node: whether the lobby's row in the store names this node (`Server+LobbyNode`).
    var heldHere = false

    /// Lists a connection (again), refused when another identity is listed under the same name,
    /// when the lobby is full, or when the connection's address holds its share of it. A
    /// connection that comes back under another name withdraws its open challenge: returned, so
    /// the challenged side is told it expired.
    func enter(_ presence: Presence) -> Result<Open?, WireError> {
        if let other = present.values.first(where: { $0.key == presence.key && $0.connection != presence.connection }),
           other.identity != presence.identity || presence.identity == .guest {
            return .failure(WireError(.nameTaken, "Someone is in the lobby as \"\(other.entry.name)\" already; pick another name."))
        }
        let previous = present[presence.connection]
        if previous == nil {
            if present.count >= size.cap {
                return .failure(WireError(.serverFull, "The lobby is full; try again in a minute or join a match by name."))
            }
            let mine = present.values.count { $0.address == presence.address }
            if mine >= size.perAddress {
                return .failure(WireError(.addressLimit, "Your address has \(mine) connections in the lobby, the most one address may have; close one first."))
            }
        }
        present[presence.connection] = presence
        if previous?.entry != presence.entry || previous?.key != presence.key { version += 1 }
        guard let previous, previous.key != presence.key, let withdrawn = open.removeValue(forKey: presence.connection) else { return .success(nil) }
        return .success(withdrawn)
    }

    /// An account comes in under its own name: the guests listed under it meanwhile (they took it
    /// while it was free) leave the list, and every challenge from them or to that name ends, so
    /// none passes to the account. Returns the guests' connections and the challenges ended.
    func displaceGuests(listedAs key: String) -> (guests: [ConnectionID], ended: [Open]) {
        let guests = present.values.filter { $0.key == key && $0.identity == .guest }.map(\.connection).sorted()
        guard !guests.isEmpty else { return ([], []) }
        for guest in guests { present[guest] = nil }
        version += 1
        let ended = open.values.filter { guests.contains($0.challenger.connection) || $0.challengedKey == key }
        for challenge in ended { open[challenge.challenger.connection] = nil }
        return (guests, ended.sorted { ($0.expiresAt, $0.challenger.key) < ($1.expiresAt, $1.challenger.key) })
    }

    /// Drops the connections that closed or sat down somewhere; returns the open challenges
    /// that went with them (either side gone), so whoever is left can be told they expired.
    func keep(only isListed: (ConnectionID) -> Bool) -> [Open] {
        guard !present.isEmpty else { return [] }  // asked every loop turn: an empty lobby costs nothing
        let before = present.count
        for id in present.keys where !isListed(id) { present[id] = nil }
        if present.count != before { version += 1 }
        let listed = Set(present.values.map(\.key))
        let gone = open.values.filter { present[$0.challenger.connection] == nil || !listed.contains($0.challengedKey) }
        for challenge in gone { open[challenge.challenger.connection] = nil }
        return gone.sorted { ($0.expiresAt, $0.challenger.key) < ($1.expiresAt, $1.challenger.key) }
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

    /// Every connection listed.
    var listed: [ConnectionID] { present.keys.sorted() }

    /// When the next open challenge expires; nil when none is open.
    var nextExpiry: Instant? { open.values.map(\.expiresAt).min() }

    /// Takes the challenges whose time is up at `now` off the books, oldest first, so both sides
    /// can be told; the allowance book forgets the addresses that made none lately.
    func expire(at now: Instant) -> [Open] {
        let expired = open.values.filter { $0.expiresAt.milliseconds <= now.milliseconds }
            .sorted { ($0.expiresAt, $0.challenger.key) < ($1.expiresAt, $1.challenger.key) }
        for gone in expired { open[gone.challenger.connection] = nil }
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
        if let pending = open[connection] ?? open.values.first(where: { $0.challenger.key == challenger.key }) {
            return .failure(WireError(.challengeOpen, "Your challenge to \(pending.challengedName) is still open; wait for its answer.",
                                      details: ["expiresAt": .int(pending.expiresAt.milliseconds)]))
        }
        let recent = (made[challenger.address] ?? []).filter { now.milliseconds - $0.milliseconds < Self.allowanceMs }
        if recent.count >= Self.allowance, let first = recent.first {
            let wait = Self.allowanceMs - (now.milliseconds - first.milliseconds)
            return .failure(WireError(.challengeLimited, "That is \(Self.allowance) challenges in a minute from your address; wait a little.",
                                      details: ["retryAfterMs": .int(wait)]))
        }
        made[challenger.address] = recent + [now]
        let made = Open(challenger: challenger, challengedKey: key, challengedName: challenged.entry.name,
                        variant: variant ?? challenger.entry.variant, expiresAt: Instant(milliseconds: now.milliseconds + Self.lifetimeMs))
        open[connection] = made
        return .success(made)
    }

    /// Takes the open challenge from `name` to the listed `connection` off the books, to accept or decline it.
    func answer(by connection: ConnectionID, from name: String) -> Result<Open, WireError> {
        guard let answering = present[connection] else { return .failure(Self.notListed) }
        let key = PlayerName.skeleton(name)
        guard let found = open.values.first(where: { $0.challenger.key == key && $0.challengedKey == answering.key }) else {
            return .failure(WireError(.noSuchChallenge, "\(name) has no open challenge for you: it was answered, or it expired."))
        }
        open[found.challenger.connection] = nil
        return .success(found)
    }

    /// A fresh name for an accepted challenge's match: node-qualified on a node
    /// ("challenge-a-7", as unnamed duels are), so no two nodes make the same one.
    func nextMatchName(node: String?, isFree: (String) -> Bool) -> String {
        let prefix = node.map { "challenge-\($0)-" } ?? "challenge-"
        repeat { accepted += 1 } while !isFree("\(prefix)\(accepted)")
        return "\(prefix)\(accepted)"
    }

    private static let notListed = WireError(.notInLobby, "Come into the lobby first: {\"type\":\"lobby\",\"name\":\"you\"}.")
}
