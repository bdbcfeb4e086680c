import SetArena
import SetRules
import SetWire

/// One arena held on this server (its room `~arena-NAME`): the pure `Arena` as the store holds
/// it, and the connections joined to it (as players) or watching it.
final class ArenaRoom {
    /// A connection following the arena: the player it joined as, or nil when it only watches.
    /// Who asks for a line (`lineRefusal`): a guest, or an account (its id; nil while the join
    /// is making it).
    enum ArenaJoiner: Equatable {
        case guest
        case account(Int?)
    }

    struct Member: Equatable {
        var player: String?
        /// Where its connection comes from, for the players one address may have here.
        var address = ""
    }

    let name: String
    let variant: Variant
    let rated: Bool
    /// The store's wall clock minus this server's, fixed when the room was loaded: the arena
    /// then runs on the server's clock (its timers, an injected clock in tests).
    let offset: Int64
    var arena: Arena
    private(set) var members: [ConnectionID: Member] = [:]
    /// Bumped on every change to the standings or boards; `pushedVersion` is the last one pushed.
    private(set) var version = 0
    var pushedVersion = 0
    /// The last state pushed: what a follower owed a state is sent.
    private(set) var pushedLine: [UInt8] = []
    /// The state every follower was last sent (nil: none yet, or one follower was since answered
    /// with another): a change that leaves the line as it was is then no news to anyone.
    private(set) var pushedView: ArenaView?
    /// Duels whose end the store did not take (it was down), by number, written again at
    /// `unwrittenRetry`: until then their players are still playing, so none is lost.
    var unwritten: [Int: ArenaGameEnd] = [:]
    var unwrittenRetry = Instant(milliseconds: 0)
    /// When the free players are paired again after a deal the store did not take (nil: none
    /// was refused since they last were).
    var pairRetry: Instant?
    /// Duels being written to the store: the state is pushed once none is.
    var dealing = 0
    /// The numbers of the duels dealt and not yet stored and told: no answer shows them.
    var unstored: Swift.Set<Int> = []
    /// Each told duel nobody has sat in yet, by number: when its seat wait ends (server clock).
    var seatWaits: [Int: Instant] = [:]
    /// Each told duel's seat tokens, in its players' order, until its seat wait ends: who sat in it.
    var seatTokens: [Int: [String]] = [:]
    /// The account each player joined as (a guest is not here), written with their row.
    var accounts: [String: Int] = [:]
    /// Whether the final places were handed to the store (once the standings are final).
    var finalKept = false
    /// The CPU its pairing and standings took here.
    var cpu = ArenaCPU()

    init(_ stored: StoredArena, at wall: Int64, offset: Int64) {
        name = stored.name
        variant = stored.variant
        rated = stored.rated
        self.offset = offset
        arena = stored.arena(at: wall)
        for player in stored.players { if let account = player.account { accounts[player.entrant.name] = account } }
    }

    /// Why the line `name` names in this arena is not a joiner's to take, if it is not: a line
    /// belongs to the account that joined it (a guest's to no account, and to nobody else while
    /// its guest is here on another connection), and a name drawn like a line's is that line's.
    /// Without this a name alone took another player's line, points and waiting duel.
    func lineRefusal(of name: String, by joiner: ArenaJoiner, on connection: ConnectionID) -> String? {
        let key = PlayerName.skeleton(name)
        guard let line = arena.players.keys.first(where: { PlayerName.skeleton($0) == key }) else { return nil }
        guard line == name else { return "looks like \(line)'s name in the arena \(self.name)" }
        switch (accounts[line], joiner) {
        case (let owner?, .account(let id?)) where owner == id: return nil
        case (nil, .guest):
            let here = members.contains { $0.key != connection && $0.value.player == line }
            return here ? "is played in the arena \(self.name) by a guest who is here" : nil
        default: return "is another player's line in the arena \(self.name)"
        }
    }

    /// The name `account` plays under here, if it joined under one; nil for a guest or a newcomer.
    func name(of account: Int) -> String? {
        accounts.first { $0.value == account }?.key
    }

    /// The arena's time (wall-clock milliseconds) at the server's `now`.
    func time(at now: Instant) -> Int64 { now.milliseconds + offset }

    /// When its phase changes next, a told duel's seat wait ends, the ends the store did not
    /// take are written again, or the players of a deal it did not take are paired again, on
    /// the server's clock.
    var nextDeadline: Instant? {
        let phase = arena.nextDeadline.map { Instant(milliseconds: $0 - offset) }
        return ([phase, unwritten.isEmpty ? nil : unwrittenRetry, pairRetry].compactMap { $0 } + seatWaits.values).min()
    }

    /// The room's name in the store's `match_homes` (no match name has a `~`).
    static func room(_ arena: String) -> String { "~arena-\(arena)" }

    func changed() { version += 1 }

    /// Whether `view` tells some follower something: it is not the state all were last sent.
    func isNews(_ view: ArenaView) -> Bool { view != pushedView }

    /// `view` (encoded as `line`) was pushed to every follower.
    func pushed(_ view: ArenaView, line: [UInt8]) {
        pushedView = view
        pushedLine = line
    }

    /// `view` was one follower's answer: unless all were pushed that very state, the next push
    /// goes out whatever it says, so this follower is not left on a state the others never had.
    func answered(_ view: ArenaView) {
        if view != pushedView { pushedView = nil }
    }

    func follow(_ connection: ConnectionID, as player: String?, from address: String) {
        members[connection] = Member(player: player, address: address)
        changed()
    }

    /// How many players other than `name` are joined here from `address` (on connections still
    /// open; a player on two connections counts once).
    func players(from address: String, besides name: String) -> Int {
        Swift.Set(members.values.compactMap { $0.address == address && $0.player != name ? $0.player : nil }).count
    }

    func unfollow(_ connection: ConnectionID) {
        members[connection] = nil
    }

    /// The connections joined as `player`.
    func connections(of player: String) -> [ConnectionID] {
        members.filter { $0.value.player == player }.keys.sorted()
    }

    /// What it stored for this player now: who they are and why they are not paired.
    func stored(_ player: String) -> StoredArenaPlayer? {
        guard let found = arena.players[player] else { return nil }
        var pause: ArenaPause?
        if case .paused(let why) = found.presence { pause = why }
        return StoredArenaPlayer(entrant: found.entrant, pause: pause, account: accounts[player])
    }

    /// Its whole state on the wire (`offset`: the store's wall clock minus this server's).
    /// The duels not yet stored are left out (their players shown free), so a direct answer
    /// never shows a board before its pairing is stored and told (pushes wait for that).
    func view() -> ArenaView {
        var shown = arena
        for number in unstored { shown.cancel(game: number) }
        return ArenaView.of(name: name, variant: variant, rated: rated, arena: shown, offset: offset)
    }
}

/// The arenas this server holds, and which one each connection follows.
final class ArenaRooms {
    private(set) var rooms: [String: ArenaRoom] = [:]
    /// The arenas whose rows name this node (on nodes; a server that is no node holds every one).
    var held: Set<String> = []
    private var following: [ConnectionID: String] = [:]
    /// The arenas being held again after a restart, and the duels of theirs that ended before
    /// they were: counted once they are.
    var resuming: Set<String> = []
    var unheldEnds: [String: [FinishedGame]] = [:]
    /// The scheduled slots' arenas this server made or found made, while their slots are due.
    var scheduled: Set<String> = []
    /// The arenas whose state changed this loop turn: pushed once, at the turn's end.
    var due: Set<String> = []
    /// How often each arena's state may be pushed.
    var paces: [String: PushPace] = [:]
    /// Followers still reading an earlier state when one was pushed: each gets the latest one
    /// once its queue has room, instead of every state between.
    var owed: Set<ConnectionID> = []

    subscript(name: String) -> ArenaRoom? { rooms[name] }

    func hold(_ room: ArenaRoom) { rooms[room.name] = room }

    /// The arena `connection` follows, if any.
    func room(of connection: ConnectionID) -> ArenaRoom? { following[connection].flatMap { rooms[$0] } }

    func follow(_ room: ArenaRoom, by connection: ConnectionID, as player: String?, from address: String) {
        if let before = following[connection], before != room.name { rooms[before]?.unfollow(connection) }
        following[connection] = room.name
        room.follow(connection, as: player, from: address)
    }

    /// Stops `connection` following its arena; returns the room and the player it was joined as.
    @discardableResult
    func unfollow(_ connection: ConnectionID) -> (ArenaRoom, String?)? {
        guard let name = following.removeValue(forKey: connection), let room = rooms[name] else { return nil }
        let member = room.members[connection]
        room.unfollow(connection)
        return (room, member?.player)
    }

    /// Every connection following some arena.
    var followers: [ConnectionID] { Array(following.keys) }
}

extension ArenaView {
    /// An arena's whole state on the wire, its times moved to this server's clock by `offset`.
    static func of(name: String, variant: Variant, rated: Bool, arena: Arena, offset: Int64) -> ArenaView {
        ArenaView(header: ArenaHeader(arena: name, variant: variant, rated: rated, state: ArenaState(arena.phase),
                                      endsAt: max(0, arena.endsAt - offset)),
                  startsAt: max(0, arena.startsAt - offset), standings: ArenaEntry.standings(of: arena, arena: name, withPerformance: false),
                  boards: arena.boards.map { game in
                      ArenaBoard(match: ArenaStore.match(arena: name, game: game.number), players: game.players,
                                 scores: game.players.map { arena.players[$0]?.record.score ?? 0 })
                  })
    }
}

extension ArenaState {
    init(_ phase: ArenaPhase) {
        switch phase {
        case .starting: self = .starting
        case .running: self = .running
        case .finished: self = .finished
        }
    }
}

extension ArenaEntry {
    /// An arena's standings as the wire shows them (`performance` in results only).
    static func standings(of arena: Arena, arena name: String, withPerformance: Bool) -> [ArenaEntry] {
        arena.standings.enumerated().map { index, player in
            var paused = false
            if case .paused = player.presence { paused = true }
            return ArenaEntry(rank: index + 1, name: player.name, score: player.record.score, games: player.record.games,
                              wins: player.record.wins, streak: player.record.streak, fire: player.record.fire,
                              rating: player.entrant.rating, provisional: player.entrant.provisional, bot: player.entrant.bot,
                              paused: paused, playing: player.playing.map { ArenaStore.match(arena: name, game: $0) },
                              performance: withPerformance ? player.performance : nil)
        }
    }
}
