import SetClient
import SetRules
import SetWire

/// How a player leaves the lobby screen; the shell around it carries it out.
package enum LobbyOutcome: Hashable, Sendable {
    /// Pair with whoever is waiting, as `join` without a match did before the lobby.
    case quickDuel
    /// Take the open seat of this match.
    case join(match: String)
    /// A challenge was accepted: this player's seat in `match` is taken with `token`.
    case play(match: String, token: String, variant: Variant)
    /// Watch this live match.
    case watch(match: String)
    case quit
    /// The server refused us for good, or went away: the words to print.
    case failed(String)
}

/// What the lobby screen asks its shell to do; the shell's `ClientSession` speaks the protocol.
package enum LobbyEffect: Hashable, Sendable {
    /// Send this lobby request (a challenge, an accept, a decline) on the session's connection.
    case send(ClientMessage)
    case finish(LobbyOutcome)
    /// Ask for both lists now (`ClientSession.refreshLobby`).
    case refresh
}

/// One line of the lobby a player can pick.
package enum LobbyRow: Hashable, Sendable {
    /// Another player listed in the lobby.
    case player(LobbyEntry)
    /// A duel waiting for its second player.
    case openSeat(MatchListing)
    /// A duel being played.
    case live(MatchListing)
}

/// The lobby screen's state machine: who is here, what waits and what is played, the
/// challenges to and from this player, and the keys that act on them. Pure: the session's
/// effects (`ClientSession` in its lobby stage speaks the protocol: the welcome, the lists'
/// refresh, pings, redirects, `node_away`), keys and local times (milliseconds, monotonic) in,
/// effects out; `LobbyView` draws it.
package struct LobbyState: Hashable, Sendable {
    /// Where the lobby stands with the server.
    package enum Stage: Hashable, Sendable {
        /// Waiting for the welcome.
        case greeting
        /// Listed (or asking to be): the session refreshes the lists.
        case listed
        /// An outcome was returned; nothing more happens.
        case over
    }

    /// Who this player is in the lobby, with the account key (nil: a guest) and variant they came for.
    package let me: String
    package let account: String?
    package let variant: Variant
    package private(set) var stage = Stage.greeting
    /// Everyone listed, this player included, as the server last said.
    package private(set) var players: [LobbyEntry] = []
    /// The server's match list, as it last said.
    package private(set) var matches: [MatchListing] = []
    /// Open challenges to this player, oldest first.
    package private(set) var incoming: [ChallengeNotice] = []
    /// This player's own open challenge.
    package private(set) var outgoing: ChallengeNotice?
    /// The row picked, by what it shows (so a refresh does not move the pick to another player).
    package private(set) var picked: LobbyRow?
    /// What happened last, in words ("bob declined your challenge.").
    package private(set) var note: String?
    /// Server time minus local time, from the welcome: turns `expiresAt` into seconds left.
    package private(set) var serverOffset: Int64 = 0
    /// Counts what happened, so notices show in the order they happened (`noteOrder`, `incomingOrder`).
    package private(set) var happenings = 0
    /// When `note` was set, in `happenings`.
    package private(set) var noteOrder = 0
    /// When each incoming challenge came, by challenger (lowercased), in `happenings`.
    package private(set) var incomingOrder: [String: Int] = [:]

    package init(me: String, account: String? = nil, variant: Variant = .classic) {
        self.me = me
        self.account = account
        self.variant = variant
    }

    // MARK: What is shown

    /// Whether a listed name is this player's (names compare without case, as the server's do).
    func isMe(_ name: String) -> Bool { name.lowercased() == me.lowercased() }

    /// The other players listed.
    package var others: [LobbyEntry] { players.filter { !isMe($0.name) } }
    /// Duels waiting for a second player.
    package var openSeats: [MatchListing] {
        matches.filter { $0.mode == .duel && $0.phase == .waiting && $0.players.count < 2 }
    }
    /// Duels being played.
    package var liveDuels: [MatchListing] { matches.filter { $0.mode == .duel && $0.phase == .playing } }

    /// Every row a player can pick, in the order shown and numbered (1-based).
    package var rows: [LobbyRow] {
        others.map(LobbyRow.player) + openSeats.map(LobbyRow.openSeat) + liveDuels.map(LobbyRow.live)
    }

    /// The index of the picked row in `rows`; the first row when the pick is gone.
    package var pickedIndex: Int? {
        let all = rows
        guard !all.isEmpty else { return nil }
        guard let picked else { return 0 }
        return all.firstIndex { Self.same($0, picked) } ?? 0
    }

    /// Seconds left, on the server's clock as seen from here, before `notice` expires.
    package func secondsLeft(_ notice: ChallengeNotice, at now: Int64) -> Int {
        guard let expiresAt = notice.expiresAt else { return 0 }
        let left = expiresAt - (now + serverOffset)
        return left <= 0 ? 0 : Int((left + 999) / 1000)
    }

    // MARK: The server

    /// What the session did or heard; returns what to do about it.
    package mutating func take(_ effect: SessionEffect, at now: Int64) -> [LobbyEffect] {
        guard stage != .over else { return [] }
        switch effect {
        case .welcomed(let time, _):
            serverOffset = time - now
            stage = .listed
        case .lobbyListed(let entries):
            players = entries
        case .listed(let listings, _):
            matches = listings
        case .challenge(let notice):
            return heard(notice)
        case .refused(let error), .seatInUse(let error):
            if error.fatal { return finish(.failed(error.message)) }
            say(error.message)
        case .nodeAway(let wait):
            // The node's name and the redirect's address are the server's words: shown as safe text.
            let node = wait.node.map { " (\(ServerText.printable($0)))" } ?? ""
            say("The lobby's server\(node) is away; asking again in \(wait.secondsLeft(at: now)) s.")
        case .unreachable(let wait):
            let address = ServerText.printable(wait.address)
            say("The lobby's server (\(address)) did not answer; trying again in \(wait.secondsLeft(at: now)) s.")
        case .gaveUp(let end):
            return finish(.failed("setgame: \(end.reason)"))
        case .goodbye(let reason):
            return finish(.failed(reason))
        case .send, .saveToken, .readyToChoose, .joined, .viewReplaced, .eventApplied, .roundTrips, .setsOnTable, .chatHeard, .arena,
             .pong, .log, .redirected:
            break
        }
        return []
    }

    /// The connection is gone: the lobby cannot go on without it.
    package mutating func connectionLost(_ reason: String) -> [LobbyEffect] {
        guard stage != .over else { return [] }
        // Never greeted: the server was not reached at all.
        if stage == .greeting { return finish(.failed("setgame: cannot reach the server (\(reason))")) }
        return finish(.failed("setgame: lost the server (\(reason))"))
    }

    private mutating func heard(_ notice: ChallengeNotice) -> [LobbyEffect] {
        let mine = isMe(notice.from)
        switch notice.state {
        case .open:
            if mine {
                outgoing = notice
                say("You challenged \(notice.to) to \(notice.variant.title); waiting for the answer.")
            } else {
                incoming.removeAll { $0.from.lowercased() == notice.from.lowercased() }
                incoming.append(notice)
                happenings += 1
                incomingOrder[notice.from.lowercased()] = happenings
            }
        case .accepted:
            guard let match = notice.match, let token = notice.token else { return [] }
            return finish(.play(match: match, token: token, variant: notice.variant))
        case .declined:
            forget(notice)
            say(mine ? "\(notice.to) declined your challenge." : "You declined \(notice.from)'s challenge.")
        case .expired:
            forget(notice)
            say(mine ? "Your challenge to \(notice.to) expired unanswered." : "\(notice.from)'s challenge expired.")
        }
        return []
    }

    /// A notice in words, placed after everything that happened before it.
    private mutating func say(_ words: String) {
        happenings += 1
        note = words
        noteOrder = happenings
    }

    private mutating func forget(_ notice: ChallengeNotice) {
        if isMe(notice.from) { outgoing = nil }
        incoming.removeAll { $0.from.lowercased() == notice.from.lowercased() }
    }

    // MARK: Time

    /// What is due at `now`: challenges whose time is up dropped here too, in case the server's
    /// word is slow (the session refreshes the lists).
    package mutating func tick(at now: Int64) {
        guard stage == .listed else { return }
        // A second after the server's own expiry: its notice, when it comes, says why.
        let grace: Int64 = 1_000
        incoming.removeAll { ($0.expiresAt ?? .max) + grace <= now + serverOffset }
        if let outgoing, (outgoing.expiresAt ?? .max) + grace <= now + serverOffset { self.outgoing = nil }
    }

    /// When `tick` next has something to do: the next second of a countdown on screen.
    package func nextWake(at now: Int64) -> Int64? {
        guard stage == .listed, !incoming.isEmpty || outgoing != nil else { return nil }
        return now + 1_000
    }

    // MARK: Keys

    /// One key or click; returns what to do about it.
    package mutating func input(_ event: InputEvent, at now: Int64) -> [LobbyEffect] {
        guard stage != .over, case .key(let key) = event else { return [] }
        switch key {
        case .up, .character("k"): move(-1)
        case .down, .character("j"), .tab: move(1)
        case .enter, .character(" "): return act(on: pickedRow)
        case .character("c"):
            guard case .player? = pickedRow else {
                say("Pick a player first (Up/Down or their number), then c.")
                return []
            }
            return act(on: pickedRow)
        case .character("w"):
            guard case .live? = pickedRow else {
                say("Pick a live duel first (Up/Down or its number), then w.")
                return []
            }
            return act(on: pickedRow)
        case .character("d"): return finish(.quickDuel)
        case .character("a"), .character("y"): return answer(accept: true)
        case .character("n"), .character("x"): return answer(accept: false)
        case .character("r"):
            note = nil
            return stage == .listed ? [.refresh] : []
        case .escape, .character("q"), .ctrl("c"), .ctrl("d"): return finish(.quit)
        case .character(let typed):
            guard let number = typed.wholeNumberValue, number >= 1, number <= rows.count else { return [] }
            picked = rows[number - 1]
        default: break
        }
        return []
    }

    /// The row picked now.
    package var pickedRow: LobbyRow? { pickedIndex.map { rows[$0] } }

    private mutating func move(_ step: Int) {
        let all = rows
        guard let index = pickedIndex else { return }
        picked = all[min(max(index + step, 0), all.count - 1)]
    }

    /// Enter on a row: challenge a player, take an open seat, watch a live duel.
    private mutating func act(on row: LobbyRow?) -> [LobbyEffect] {
        switch row {
        case nil:
            say("Nobody to pick yet: d for a quick duel, r to look again.")
            return []
        case .player(let entry)?:
            if let outgoing {
                say("Your challenge to \(outgoing.to) is still open; wait for its answer.")
                return []
            }
            say("Challenging \(entry.name)…")
            return [.send(.lobby(.challenge(name: entry.name, variant: nil)))]
        case .openSeat(let listing)?: return finish(.join(match: listing.name))
        case .live(let listing)?: return finish(.watch(match: listing.name))
        }
    }

    /// Accepts or declines the oldest challenge to this player.
    private mutating func answer(accept: Bool) -> [LobbyEffect] {
        guard let first = incoming.first else {
            say("Nobody has challenged you.")
            return []
        }
        return [.send(.lobby(accept ? .accept(from: first.from) : .decline(from: first.from)))]
    }

    private mutating func finish(_ outcome: LobbyOutcome) -> [LobbyEffect] {
        stage = .over
        return [.finish(outcome)]
    }

    /// Whether two rows show the same player or match, whatever changed in them since.
    static func same(_ a: LobbyRow, _ b: LobbyRow) -> Bool {
        switch (a, b) {
        case (.player(let x), .player(let y)): x.name.lowercased() == y.name.lowercased()
        case (.openSeat(let x), .openSeat(let y)), (.live(let x), .live(let y)): x.name == y.name
        default: false
        }
    }
}
