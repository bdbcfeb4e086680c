// The door's bot duel: its bot runs beside the player and steps out while the player reads (help,
// the leave box), which pauses the match. On a real server an away seat has only its seat wait
// (two minutes a game by default): a bot held out past it would forfeit, and a player could win a
// rated game by reading the help. So the bot comes back a little before, and stays for the game.
extension ClientApp {
    /// How long before its seat would forfeit a held bot comes back.
    static let botReturnMarginMs: Int64 = 15_000

    /// Whether the bot beside us is held off now: a box the player reads is open, and its seat
    /// wait has not run low this game.
    var holdsBotNow: Bool {
        Self.holdsLocalBot(state.overlay) && !(state.botHoldSpent != nil && state.botHoldSpent == state.view?.game)
    }

    /// Called on each tick: brings a held door bot back once its seat wait runs low.
    mutating func releaseBotBeforeItForfeits(at now: Int64) -> [ClientEffect] {
        guard state.options.botBeside != nil, !state.options.isLocal, holdsBotNow, let view = state.view, view.phase == .playing,
              let forfeitAt = view.forfeitAt, let me = state.seat, view.player(me)?.present ?? false,
              state.clock.serverTime(at: now) >= forfeitAt.saturatingSubtracting(Self.botReturnMarginMs) else { return [] }
        state.botHoldSpent = view.game
        state.note("the bot is back: its seat cannot wait any longer this game", .bad, at: now)
        return [.holdLocal(false)]
    }
}
