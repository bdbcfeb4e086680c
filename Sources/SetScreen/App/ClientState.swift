import SetClient
import SetRules
import SetWire

/// Where the client stands with the server.
enum ConnectionState: Hashable, Sendable {
    /// Opening the socket; `attempt` counts tries since the last success.
    case connecting(attempt: Int)
    /// Connected, waiting for the welcome or for `joined`.
    case joining
    /// Joined (or, for a spectator choosing, greeted and listing).
    case live
    /// Lost; the next attempt is at local time `retryAt`.
    case lost(reason: String, retryAt: Int64, attempt: Int)
}

/// A box over the table that takes the keys until it is dismissed.
enum Overlay: Hashable, Sendable {
    case help
    /// Asked to deal with an empty deck.
    case deckEmpty
    /// Asked to quit in the middle of a duel.
    case confirmQuit
    /// Asked for a new solo game while this one is being played: the kept game would be lost.
    case confirmNewGame
    /// The kept seat is still held by another connection (another terminal?): take it over?
    case confirmTakeOver(String)
}

/// A trio just judged, shown as matched or mismatched for a moment.
struct Flash: Hashable, Sendable {
    var cards: [Card]
    var isSet: Bool
    var until: Int64
    /// Who took the set: its cards fly to that player's score.
    var by: Seat? = nil
}

/// What the client does to the outside world; the app decides, the shell (or a test) performs.
package enum ClientEffect: Hashable, Sendable {
    /// Open a connection to the server.
    case connect
    /// Close the connection (when the server's answer means it must be opened afresh).
    case disconnect
    case send(ClientMessage)
    /// Keep the seat token for the next run of the same command; nil forgets it.
    case saveToken(String?)
    case log(String)
    /// Leave the program with this status, printing `message` after the terminal is restored.
    case quit(status: Int32, message: String?)
    /// The player is ready: a local match may begin (`setgame play` lets its bot join now).
    case startLocal
    /// Help or the leave box opened (true) or closed in a local match: its bot holds off meanwhile.
    case holdLocal(Bool)
    /// A solo game ended: keep these personal records (`setgame play` writes its records file).
    case saveRecords(PersonalRecords)

    /// Whether this effect ends the program.
    var isQuit: Bool { if case .quit = self { true } else { false } }
}

/// Everything the client knows and shows: the match as the server last told it, and the state
/// that is purely local (cursor, overlays, notices, motion). A value: the app is a pure function of
/// what happened and when, which is what lets the screen and the keys be tested without a terminal.
package struct ClientState: Equatable, Sendable {
    /// Who this client is and what it shows; the session keeps its own copy for the protocol.
    var options: ClientOptions
    var size: TerminalSize
    var connection: ConnectionState = .connecting(attempt: 0)
    /// The protocol side: join or resume, pings, the match view. Shared with the bots and the bench.
    var session: ClientSession
    var clock = ClockSync()
    /// A spectator choosing: the live matches, nil until the first list arrives.
    var listings: [MatchListing]?
    var pickerIndex = 0
    /// The list being paged through: the pages so far, and the cursor of the next one.
    var listSweep: ListSweep?
    /// My selection as I expect it, ahead of the server's confirmation.
    var mySelection: [Card] = []
    /// A claim was sent and not answered yet: further touches need not claim again.
    var claimPending = false
    var cursor = 0
    var cursorVisible = false
    /// The first key of a two-key label.
    var typed = ""
    var overlay: Overlay?
    /// The match-over box was put away to look at the final table.
    var resultHidden = false
    var notices: [Notice] = []
    var flash: Flash?
    var hint: [Card] = []
    var motion: Motion
    /// Which card holds which label: kept while a card stays on the table.
    var labels = LabelBook()
    /// How the next new cards arrive.
    var pendingEntry = Motion.Entry.scatter
    /// Whether this session has laid out a table yet: its first is drawn in place (`Motion.Entry.arrival`).
    var tableShown = false
    var nextListAt: Int64 = 0
    /// A local match waits for the player's first key before it begins.
    var awaitingStart: Bool
    /// No key has come yet, and an Enter as the first is dropped (`ClientOptions.dropsLeadingEnter`).
    var leadingEnterDropped: Bool
    /// How long the server keeps a seat for a player who left, from its welcome.
    var seatWaitMs: Int64?
    /// The game in which the door's bot came back because its seat wait ran low: it is held off
    /// no more in that game.
    var botHoldSpent: Int?
    /// Why the bot beside us could not take its seat (`botCouldNotJoin`): said where the player
    /// waits for it, until the bot is started again.
    var botTrouble: String?
    /// The game in which a bot the server turned away was asked back before its seat forfeited:
    /// once a game, as a held bot comes back once.
    var botTroubleGame: Int?
    /// The chat line being typed; nil while the chat input is closed.
    var chatDraft: String?
    /// Whether the open chat shows the last lines over the table (↑ in the input): at 80×24 the
    /// table keeps every row, so what was said is read here, never under the cards.
    var chatHistoryShown = false
    /// When the current game was dealt (server ms), as this client saw it: how long it took.
    var gameStartedAt: Int64?
    /// Whether the last join took a new seat rather than resuming one: a solo game it found
    /// dealt was dealt for it, and its time runs from the start box's key.
    var joinedAfresh = false
    /// When the newest shown chat line was heard (local time), for the folded strip to fade.
    var chatHeardAt: Int64?
    /// A local solo game's personal records; nil where none are kept.
    var soloRecords: SoloRecords?
    /// Resigned from the leave box: the client leaves once the game's end is told (the server
    /// tells it once its record is committed, so a profile asked next shows the game), or at the
    /// deadline (local time) if it is not; `message` is what it prints on leaving.
    var leavingAfterResign: LeavingAfterResign?

    package init(options: ClientOptions, size: TerminalSize, token: String? = nil, seed: UInt64 = 0x5E7) {
        self.options = options
        self.size = size
        session = ClientSession(options, token: token)
        // A person watches this screen: a node that is away is waited for, with its countdown,
        // until they quit, where a program gives up after a few tries.
        session.awayNodePatience = .untilQuit
        awaitingStart = options.startBoxTitle != nil
        leadingEnterDropped = options.dropsLeadingEnter
        soloRecords = options.records.map(SoloRecords.init)
        motion = Motion(enabled: options.animation, seed: seed)
    }

    /// Goes on with the lobby's session after its accepted challenge: the seat's token and the
    /// node the lobby lives on (where its duels are made), under this screen's options; the
    /// game's connection sends the join there.
    package mutating func continueSession(_ lobby: ClientSession) {
        var continued = lobby
        continued.options = session.options
        continued.awayNodePatience = session.awayNodePatience
        continued.disconnected()
        session = continued
    }

    /// Whether I play (rather than watch).
    var isPlayer: Bool { options.role == .player }

    /// The spectator's match list is on screen.
    var isPicking: Bool { session.isChoosing }
    /// True once a join succeeded: later losses are retried rather than fatal.
    var everJoined: Bool { session.everJoined }
    /// The match as the server last told it.
    var view: MatchView? { session.view }
    var seat: Seat? { session.seat }
    var token: String? { session.token }
    /// The match joined, as the server named it.
    var matchName: String? { session.matchName }
    /// Spectators: how many sets the table holds.
    var setsOnTable: Int? { session.setsOnTable }
    var nextPingAt: Int64 { session.nextPingAt }

    /// The newest notice still up.
    func notice(at now: Int64) -> Notice? { notices.last { $0.until > now } }

    mutating func note(_ text: String, _ tone: Notice.Tone = .info, at now: Int64, for lifetime: Int64 = Notice.lifetime,
                       during window: Window? = nil, about topic: String? = nil) {
        // The same words again replace the older copy: three refused deals read "no room …" once,
        // not three times side by side; news of the same thing replaces what it makes stale.
        notices.removeAll { $0.text == text || (topic != nil && $0.topic == topic) }
        notices.append(Notice(text, tone: tone, until: now + lifetime, window: window, topic: topic))
        if notices.count > 4 { notices.removeFirst(notices.count - 4) }
    }

    /// A player's name by seat, or a placeholder.
    func name(of seat: Seat) -> String {
        view?.player(seat)?.name ?? "player \(seat.rawValue + 1)"
    }

    /// "you" for my seat, the name otherwise.
    func who(_ seat: Seat) -> String { seat == self.seat && isPlayer ? "you" : name(of: seat) }

    /// The cards a player may touch, by index: the table in slot order, then (Set-Chain) the
    /// chain's cards that lie apart from it. Labels and clicks count through them in this order.
    var touchableCards: [Card] {
        guard let view else { return [] }
        return view.table + ChainStrip.cards(view)
    }

    /// The cards I have selected as the screen should show them.
    var shownSelection: [Card] {
        guard let view else { return [] }
        if isPlayer { return mySelection.filter(touchableCards.contains) }
        return view.selection
    }

    /// The other player's name when they forfeited or are no longer connected after the game:
    /// a rematch cannot happen, so none is offered.
    var opponentGone: String? {
        guard options.mode == .duel, isPlayer, let view, view.phase == .over, let me = seat,
              let other = view.player(me.other) else { return nil }
        let forfeited = view.result?.reason == .forfeited && view.result?.by == other.seat
        return forfeited || !other.present ? other.name : nil
    }

    /// The other side's live selection, for players.
    var opponentSelection: [Card] {
        guard isPlayer, let view, let holder = view.selectionSeat, holder != seat else { return [] }
        return view.selection
    }
}

/// A client that resigned from the leave box and leaves once the game's end is told.
struct LeavingAfterResign: Hashable, Sendable {
    /// Local time at which it leaves anyway.
    var deadline: Int64
    /// What it prints on leaving.
    var message: String?
}
