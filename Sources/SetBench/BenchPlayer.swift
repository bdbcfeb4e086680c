import SetClient
import SetNet
import SetRules
import SetWire

/// A bot for load: it plays by the rules through the protocol, takes turns with its opponent so
/// their claims never collide (a refused request would count as an error), and reads in full
/// only the few event kinds that change what it does. Its join, seat and snapshot go through the
/// shared `ClientSession`; the events it reads stay its own lean copy, since decoding every event
/// in full would load the machine the bench measures.
final class BenchPlayer {
    let match: BenchMatch
    let name: String
    /// Its connection: a new one when a `redirect` sends the player to another server.
    private(set) var connection: LineSocket
    private let options: ClientOptions
    private var session: ClientSession
    /// How many `redirect`s it followed, to give up on a loop of them.
    private(set) var redirects = 0
    var seat: Seat? { session.seat }
    private var table: [Card] = []
    /// The variant the match plays, from the snapshot; Set-Chain's chain from the sets taken.
    private(set) var variant = Variant.classic
    private var chain: [Card] = []
    private var deck = 0
    private var window: Window?
    private var phase = MatchPhase.waiting
    private var rematchAsked = false
    /// Both players count table changes alike, and take turns by it.
    private var tableChanges = 0
    private var toSelect: [Card] = []
    /// The seq of the last event of its match it received: what its claims say they saw.
    var lastSeq: Int?
    /// Requests awaiting their acks, in the order sent: id and send time (0 until written).
    private(set) var outstanding: [(id: Int, sentAt: UInt64)] = []
    var nextActionAt: UInt64 = 0

    init(match: BenchMatch, seatName: String, connection: LineSocket, variant: Variant?) {
        self.match = match
        name = seatName
        self.connection = connection
        var options = ClientOptions(name: seatName, match: match.name, variant: variant, pings: .keepAlive)
        options.joinsAtOnce = true
        self.options = options
        session = ClientSession(options)
    }

    /// Told `redirect` (its match lives on another server) and connected there: the messages to
    /// send on the new connection, the same join again.
    func redirected(to connection: LineSocket) -> [ClientMessage] {
        self.connection = connection
        redirects += 1
        session = ClientSession(options)
        return connected()
    }

    /// The connection is open: the messages to send now (the join).
    func connected() -> [ClientMessage] {
        session.connected(at: 0).compactMap { effect in
            if case .send(let message) = effect { message } else { nil }
        }
    }

    var hasJoined: Bool { seat != nil && phase != .waiting }

    /// Takes in a full message (snapshot, joined, or an event that matters).
    func take(_ message: ServerMessage) {
        switch message {
        case .joined: _ = session.receive(message, at: 0)
        case .snapshot:
            _ = session.receive(message, at: 0)
            guard let view = session.view else { return }
            variant = view.variant
            chain = view.chain
            table = view.table
            deck = view.deck
            lastSeq = max(lastSeq ?? 0, view.seq)
            window = view.window
            phase = view.phase
        case .event(let event):
            switch event.body {
            case .gameStarted(let start):
                table = start.table
                deck = start.deck
                window = nil
                phase = .playing
                rematchAsked = false
                tableChanges = 0
                toSelect = []
                chain = []
            case .gameOver:
                phase = .over
                window = nil
                if seat == .first { match.gamesCompleted += 1 }
            case .rules(.tableChanged(_, _, let newTable, let newDeck)):
                table = newTable
                deck = newDeck
                tableChanges += 1
            case .rules(.setTaken(_, let cards, _, _)) where variant == .chain: chain = cards
            case .rules(.windowOpened(let opened)): window = opened
            case .rules(.windowClosed): window = nil
            default: break
            }
        default: break
        }
    }

    /// The kinds that `take` needs in full; everything else is only counted.
    func needsDecoding(kind: Substring) -> Bool {
        kind == "table" || kind == "game_started" || kind == "game_over" || kind == "window_opened" || kind == "window_closed"
            || (variant == .chain && kind == "set_taken")
    }

    func replied(to id: Int) -> UInt64? {
        guard let index = outstanding.firstIndex(where: { $0.id == id }) else { return nil }
        return outstanding.remove(at: index).sentAt
    }

    /// What to send now: one action, or, for an unpaced instant bot, a whole claim with its three
    /// picks at once, as `SetBot`'s instant level does.
    func nextActions(paced: Bool) -> [Action] {
        guard let first = nextAction() else { return [] }
        guard !paced, first == .claim else { return [first] }
        defer { toSelect = [] }
        return [first] + toSelect.map(Action.select)
    }

    /// The next request this player should make now, if any.
    func nextAction() -> Action? {
        guard let seat, outstanding.isEmpty else { return nil }
        switch phase {
        case .waiting: return nil
        case .over:
            guard !rematchAsked else { return nil }
            rematchAsked = true
            return .rematch
        case .playing: break
        }
        if let window {
            guard window.holder == seat else { return nil }
            if let card = toSelect.first {
                toSelect.removeFirst()
                return .select(card)
            }
            if window.kind != .claim, let set = variant.firstCombination(table: table, chain: chain) {
                toSelect = Array(set.dropFirst())
                return .select(set[0])
            }
            return .pass
        }
        guard tableChanges % 2 == seat.rawValue else { return nil }
        if let set = variant.firstCombination(table: table, chain: chain) {
            toSelect = set
            return .claim
        }
        return deck > 0 ? .deal : nil
    }

    /// The request for `action`: a claim says the last event it saw, so the server knows it was
    /// made for the table on show however quickly it follows the rival's set.
    func request(_ action: Action) -> ClientMessage {
        .act(action, seat: nil, seen: action == .claim ? lastSeq : nil)
    }

    func sent(id: Int) { outstanding.append((id, 0)) }

    /// Sets the send time of requests not yet stamped, taken when they were actually written.
    func stamp(sentAt now: UInt64) {
        for index in outstanding.indices where outstanding[index].sentAt == 0 { outstanding[index].sentAt = now }
    }
}
