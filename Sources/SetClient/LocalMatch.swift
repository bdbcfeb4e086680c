import SetRules

/// How the client hears why a bot running beside its player could not take its seat: it hands
/// the bot a listener, which the bot's thread calls with each reason; the client posts it to its
/// own loop.
package typealias ListenForBotTrouble = @Sendable (@escaping @Sendable (String) -> Void) -> Void

/// A bot the door runs in this process beside its player: how to start it at the player's first
/// key, as `play`'s, and how to hold it off while the player reads help or the leave box: it steps
/// out, which pauses the match as `play`'s does.
package struct BotBeside: Hashable, Sendable {
    /// Called once, when the player leaves the start box (or the bot's seat can wait no longer).
    package var start: @Sendable () -> Void
    package var hold: @Sendable (Bool) -> Void
    /// Hands the bot a listener for why it could not take its seat.
    package var listen: ListenForBotTrouble

    package init(start: @escaping @Sendable () -> Void, hold: @escaping @Sendable (Bool) -> Void,
                 listen: @escaping ListenForBotTrouble = { _ in }) {
        self.start = start
        self.hold = hold
        self.listen = listen
    }

    /// Any two are equal: the hook is a function, which cannot be compared.
    package static func == (lhs: BotBeside, rhs: BotBeside) -> Bool { true }

    package func hash(into hasher: inout Hasher) {}
}

/// A match `setgame play` runs in this process: how the client tells its bot to begin and to hold
/// off while help is open, and keeps a solo game's records. What the screen says about it is in
/// `ClientOptions` with the rest of the words.
package struct LocalMatch: Hashable, Sendable {
    /// Called once, at the player's first key.
    package var onStart: @Sendable () -> Void
    /// Called with true when help opens, false when it closes: the match pauses meanwhile.
    package var onHold: @Sendable (Bool) -> Void
    /// Keeps the records a finished solo game left.
    package var saveRecords: @Sendable (PersonalRecords) -> Void = { _ in }
    /// Hands the bot a listener for why it could not take its seat.
    package var listen: ListenForBotTrouble = { _ in }

    package init(onStart: @escaping @Sendable () -> Void, onHold: @escaping @Sendable (Bool) -> Void) {
        self.onStart = onStart
        self.onHold = onHold
    }

    /// Any two are equal: the hooks are functions, which cannot be compared.
    package static func == (lhs: LocalMatch, rhs: LocalMatch) -> Bool { true }

    package func hash(into hasher: inout Hasher) {}
}
