import SetWire

// The door's bot duel: its bot runs beside the player and steps out while the player reads (help,
// the leave box), which pauses the match. On a real server an away seat has only its seat wait
// (two minutes a game by default): a bot held out past it would forfeit, and a player could win a
// rated game by reading the help. So the bot comes back a little before, and stays for the game.
extension ClientApp {
    /// How long before its seat would forfeit a held bot comes back.
    static let botReturnMarginMs: Int64 = 15_000

    /// Whether the bot beside us is held off now: a box the player reads is open, its seat wait
    /// has not run low this game, and it holds no window. A seat that leaves ends its window as
    /// if passed (a claim costs 10 and hands us a second chance): the bot steps out only once
    /// its window is over, so a pause never changes the score (issue 45). A claim of the bot's
    /// that we cannot see yet (on its way, or held for lag compensation) is the bot's own to
    /// finish before it leaves (`LocalBot.hold`).
    var holdsBotNow: Bool {
        Self.holdsLocalBot(state.overlay) && !(state.botHoldSpent != nil && state.botHoldSpent == state.view?.game)
            && !botHoldsWindow
    }

    /// Whether the open window is the other seat's: the bot's, beside us.
    var botHoldsWindow: Bool {
        guard let window = state.view?.window, let me = state.seat else { return false }
        return window.holder != me
    }

    /// The bot held or let go when `holdsBotNow` changed from `wasHeld` (a box opened or closed,
    /// the bot's window ended); nothing otherwise, or when the client is quitting.
    func botHoldChange(from wasHeld: Bool, effects: [ClientEffect]) -> [ClientEffect] {
        let isHeld = holdsBotNow
        guard state.options.holdsBot, state.options.mode == .duel, wasHeld != isHeld, !effects.contains(where: \.isQuit) else { return [] }
        return [.holdLocal(isHeld)]
    }

    /// Called on each tick: brings a door bot back once its seat wait runs low, whether a box
    /// holds it, a resumed duel's start box has not been answered yet (the bot starts then), or
    /// the server turned it away (it is tried again).
    mutating func releaseBotBeforeItForfeits(at now: Int64) -> [ClientEffect] {
        let unstarted = state.awaitingStart && state.isPlayer
        let turnedAway = state.botTrouble != nil && state.botTroubleGame != state.view?.game
        guard state.options.botBeside != nil, !state.options.isLocal, holdsBotNow || unstarted || turnedAway, let view = state.view,
              view.phase == .playing, let forfeitAt = view.forfeitAt, let me = state.seat, view.player(me)?.present ?? false,
              state.clock.serverTime(at: now) >= forfeitAt.saturatingSubtracting(Self.botReturnMarginMs) else { return [] }
        state.botHoldSpent = view.game
        if turnedAway {
            state.botTroubleGame = view.game
            state.note("trying the bot again: its seat cannot wait any longer this game", .bad, at: now)
            return [.holdLocal(false)]
        }
        state.botTrouble = nil
        state.note("the bot is back: its seat cannot wait any longer this game", .bad, at: now)
        guard unstarted else { return [.holdLocal(false)] }
        state.awaitingStart = false
        return [.startLocal]
    }

    /// The bot beside us (the door's, or `play`'s) could not take its seat: the server refused it
    /// or could not be reached. The player would otherwise wait at "Dealing…" for a bot that never
    /// comes; the words stay where it is awaited, and a note says it over a game in play.
    package mutating func botCouldNotJoin(_ reason: String, at now: Int64) {
        state.botTrouble = ServerText.printable(reason)
        state.note("the bot could not take its seat", .bad, at: now, for: 3 * Notice.lifetime)
    }
}
