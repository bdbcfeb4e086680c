import SetScreen

/// The keyboard's bytes as keys and clicks, with time: bytes arrive in any chunking, and a lone
/// ESC becomes the Escape key once nothing has followed it for `escapeWait` milliseconds (it may be
/// the start of an arrow's sequence still on its way). Pure: bytes and local times in, events out;
/// `KeyboardReader` gives it the terminal's bytes and the loop's clock.
struct KeyStream {
    /// How long a lone ESC waits to see whether a sequence follows: a terminal sends a sequence's
    /// bytes together, so 30 ms is far beyond any split, yet below what a person notices.
    static let escapeWait: Int64 = 30

    private var decoder = InputDecoder()
    /// When the bytes held back (a lone ESC, or one with part of a sequence) last grew.
    private var escapeHeldSince: Int64?

    init() {}

    /// When a held ESC becomes the Escape key unless more bytes come first; nil when none is held.
    var escapeDeadline: Int64? { escapeHeldSince.map { $0 + Self.escapeWait } }

    /// The events `bytes`, read at `now`, complete.
    mutating func feed(_ bytes: [UInt8], at now: Int64) -> [InputEvent] {
        let events = decoder.feed(bytes)
        // The wait starts again with every read: a slow link may split a sequence anywhere.
        escapeHeldSince = decoder.hasPendingEscape ? now : nil
        return events
    }

    /// At `now`, the Escape key (and whatever followed it, as plain keys) when the held ESC's wait
    /// is over; nothing before.
    mutating func due(at now: Int64) -> [InputEvent] {
        guard let deadline = escapeDeadline, now >= deadline else { return [] }
        escapeHeldSince = nil
        return decoder.flushPendingEscape()
    }
}
