import SetRules

/// The server's most frequent lines written directly (see `JSONObjectWriter`): events, acks and
/// spectator insights. Each writes its keys in sorted order; `EventLinesTests` checks every kind
/// against the generic encoder.
package enum EventLines {
    package static func line(_ event: WireEvent) -> [UInt8] {
        var writer = JSONObjectWriter()
        let kind = event.body.kind
        func common(_ w: inout JSONObjectWriter) {
            w.string("match", event.match)
        }
        func tail(_ w: inout JSONObjectWriter) {
            w.int("seq", event.seq)
            w.int("time", event.time)
            w.plain("type", ServerMessageType.event)
        }
        switch event.body {
        case .rules(.selectionChanged(let seat, let cards)):
            writer.cards("cards", cards); writer.plain("kind", kind); common(&writer); writer.seat("seat", seat); tail(&writer)
        case .rules(.windowOpened(let window)):
            writer.plain("kind", kind); common(&writer); tail(&writer); writer.object("window") { write(window, into: &$0) }
        case .rules(.windowClosed(let window, let end)):
            writer.string("end", end.rawValue); writer.plain("kind", kind); common(&writer); tail(&writer)
            writer.object("window") { write(window, into: &$0) }
        case .rules(.setTaken(let seat, let cards, let points, let score)):
            writer.cards("cards", cards); writer.plain("kind", kind); common(&writer); writer.int("points", points)
            writer.int("score", score); writer.seat("seat", seat); tail(&writer)
        case .rules(.notASet(let seat, let cards, let penalty, let score)):
            writer.cards("cards", cards); writer.plain("kind", kind); common(&writer); writer.int("penalty", penalty)
            writer.int("score", score); writer.seat("seat", seat); tail(&writer)
        case .rules(.penalised(let seat, let reason, let points, let score)):
            writer.plain("kind", kind); common(&writer); writer.int("points", points); writer.string("reason", reason.rawValue)
            writer.int("score", score); writer.seat("seat", seat); tail(&writer)
        case .rules(.tableChanged(let removed, let added, let table, let deck)):
            writer.cards("added", added); writer.int("deck", deck); writer.plain("kind", kind); common(&writer)
            writer.cards("removed", removed); writer.int("seq", event.seq); writer.cards("table", table)
            writer.int("time", event.time); writer.plain("type", ServerMessageType.event)
        case .rules(.hintShown(let seat, let cards, let cost, let score)):
            writer.cards("cards", cards); writer.int("cost", cost); writer.plain("kind", kind); common(&writer)
            writer.int("score", score); writer.seat("seat", seat); tail(&writer)
        case .rules(.matchEnded(let result)):
            gameOver(result, seed: nil, ratings: [], into: &writer, match: event.match)
            tail(&writer)
        case .gameOver(let result, let seed, let ratings):
            gameOver(result, seed: seed, ratings: ratings, into: &writer, match: event.match)
            tail(&writer)
        case .rules(.rematchRequested(let seat)):
            writer.plain("kind", kind); common(&writer); writer.seat("seat", seat); tail(&writer)
        case .rules(.rematchAgreed):
            writer.plain("kind", kind); common(&writer); tail(&writer)
        case .gameStarted(let start):
            writer.string("commitment", start.commitment); writer.int("deck", start.deck); writer.int("game", start.game)
            writer.plain("kind", kind); common(&writer); writer.ints("scores", start.scores)
            writer.int("seq", event.seq); writer.cards("table", start.table); writer.int("time", event.time); writer.plain("type", ServerMessageType.event)
        case .playerJoined(let seat, let name, let rating, let provisional):
            writer.plain("kind", kind); common(&writer); writer.string("name", name)
            if let rating {
                writer.bool("provisional", provisional)
                writer.int("rating", rating)
            }
            writer.seat("seat", seat); tail(&writer)
        case .presence(let seat, let present, let forfeitAt):
            if let forfeitAt { writer.int("forfeitAt", forfeitAt) } else { writer.null("forfeitAt") }
            writer.plain("kind", kind); common(&writer); writer.bool("present", present); writer.seat("seat", seat); tail(&writer)
        case .resumed(let window, let tableChangedAt):
            writer.plain("kind", kind); common(&writer); writer.int("seq", event.seq); writer.int("tableChangedAt", tableChangedAt)
            writer.int("time", event.time); writer.plain("type", ServerMessageType.event)
            if let window { writer.object("window") { write(window, into: &$0) } } else { writer.null("window") }
        case .spectators(let count):
            writer.int("count", count); writer.plain("kind", kind); common(&writer); tail(&writer)
        }
        return writer.line()
    }

    package static func ack(id: JSONValue, seq: Int) -> [UInt8] {
        guard case .int(let number) = id else { return ServerMessageCoding.genericLine(.ack(id: id, seq: seq)) }
        var writer = JSONObjectWriter(capacity: 48)
        writer.int("id", number)
        writer.int("seq", seq)
        writer.plain("type", ServerMessageType.ack)
        return writer.line()
    }

    package static func insight(match: String, seq: Int, setsOnTable: Int) -> [UInt8] {
        var writer = JSONObjectWriter(capacity: 64)
        writer.string("match", match)
        writer.int("seq", seq)
        writer.int("setsOnTable", setsOnTable)
        writer.plain("type", ServerMessageType.insight)
        return writer.line()
    }

    private static func gameOver(_ result: MatchResult, seed: UInt64?, ratings: [RatingChange], into writer: inout JSONObjectWriter,
                                 match: String) {
        writer.plain("kind", EventKind.gameOver)
        writer.string("match", match)
        if !ratings.isEmpty { writer.raw("ratings", JSONWriter.bytes(.array(ratings.map(\.json)))) }
        writer.object("result") { w in
            w.seat("by", result.by)
            w.string("reason", result.reason.rawValue)
            w.ints("scores", result.scores)
            w.seat("winner", result.winner)
        }
        if let seed { writer.string("seed", String(seed)) } else { writer.null("seed") }
    }

    private static func write(_ window: Window, into writer: inout JSONObjectWriter) {
        writer.int("deadline", window.deadline.milliseconds)
        writer.int("durationMs", window.deadline.milliseconds(since: window.opened))
        writer.seat("holder", window.holder)
        writer.string("kind", window.kind.rawValue)
        writer.int("opened", window.opened.milliseconds)
    }
}
