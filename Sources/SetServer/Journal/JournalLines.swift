import SetRules
import SetWire

/// The journal's most frequent records, accepted actions and timer ticks, written directly with
/// their keys in sorted order (see `JSONObjectWriter`); `JournalRecord.line` uses them and
/// `JournalRecordTests` holds them to what the generic writer makes of the same records.
enum JournalLines {
    static func acted(seat: Seat, action: Action, seq: Int, at: Instant) -> [UInt8] {
        var writer = JSONObjectWriter(capacity: 96)
        writer.plain("action", RequestType(action))
        writer.int("at", at.milliseconds)
        if case .select(let card) = action { writer.int("card", card.id) }
        writer.seat("seat", seat)
        writer.int("seq", seq)
        writer.plain("type", "act")
        return writer.line()
    }

    static func tick(seq: Int, at: Instant) -> [UInt8] {
        var writer = JSONObjectWriter(capacity: 48)
        writer.int("at", at.milliseconds)
        writer.int("seq", seq)
        writer.plain("type", "tick")
        return writer.line()
    }
}
