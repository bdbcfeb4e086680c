import SetRules
@testable import SetWire
import Testing

/// The directly written lines must be exactly what the generic encoder writes.
@Suite struct EventLinesTests {
    func expectSame(_ message: ServerMessage, sourceLocation: SourceLocation = #_sourceLocation) {
        let direct = ServerMessageCoding.line(message)
        let generic = ServerMessageCoding.genericLine(message)
        #expect(String(decoding: direct, as: UTF8.self) == String(decoding: generic, as: UTF8.self), sourceLocation: sourceLocation)
    }

    @Test func everyEventKindMatchesTheGenericEncoder() {
        let window = Window(kind: .dealGrace, holder: .first, opened: Instant(milliseconds: -5), deadline: Instant(milliseconds: 7_995))
        let cards = Array(Card.all[70..<73])
        let bodies: [EventBody] = [
            .rules(.selectionChanged(seat: .second, selection: [])),
            .rules(.selectionChanged(seat: .first, selection: cards)),
            .rules(.windowOpened(window)), .rules(.windowClosed(window, .dealt)),
            .rules(.setTaken(seat: .second, cards: cards, points: 30, score: -120)),
            .rules(.notASet(seat: .first, cards: cards, penalty: 0, score: 0)),
            .rules(.penalised(seat: .second, reason: .claimPassed, points: 10, score: -10)),
            .rules(.tableChanged(removed: [], added: cards, table: Card.all, deckCount: 0)),
            .rules(.hintShown(seat: .first, cards: cards, cost: 15, score: 5)),
            .rules(.matchEnded(MatchResult(reason: .noSetsLeft, by: nil, scores: [3], winner: nil))),
            .gameOver(MatchResult(reason: .forfeited, by: .second, scores: [1, -2], winner: .first), seed: .max),
            .gameOver(MatchResult(reason: .resigned, by: .first, scores: [0, 0], winner: .second), seed: nil),
            .rules(.rematchRequested(seat: .first)), .rules(.rematchAgreed),
            .gameStarted(GameStart(game: 12, table: cards, deck: 69, scores: [0, 0], commitment: "ab\"c")),
            .playerJoined(seat: .second, name: "b\"ø\\b\u{1}☺"),
            .playerJoined(seat: .first, name: "ann", rating: 1500, provisional: true),
            .gameOver(MatchResult(reason: .resigned, by: .first, scores: [30, 0], winner: .second), seed: 42,
                      ratings: [RatingChange(seat: .first, before: 1500, after: 1338, provisional: true)]),
            .presence(seat: .first, present: false, forfeitAt: 12_000), .presence(seat: .second, present: true, forfeitAt: nil),
            .resumed(window: window, tableChangedAt: 44), .resumed(window: nil, tableChangedAt: -1),
            .spectators(count: 0),
        ]
        for (index, body) in bodies.enumerated() {
            expectSame(.event(WireEvent(match: "m.\(index)", seq: index * 1_000_003, time: Int64(index) - 7, body: body)))
        }
    }

    @Test func everyEventOfRandomGamesMatches() {
        var generator = SplitMix64(seed: 11)
        for seed: UInt64 in 0..<30 {
            var match = Match(mode: seed % 3 == 0 ? .solo : .duel, seed: seed, at: .zero)
            var now: Int64 = 0
            for _ in 0..<200 where !match.isOver {
                now += Int64(generator.uniform(below: 7_000))
                let seat: Seat = match.mode == .duel && generator.uniform(below: 2) == 1 ? .second : .first
                let action: Action = [Action.claim, .deal, .pass, .hint][generator.uniform(below: 4)]
                let chosen = generator.uniform(below: 3) == 0 ? action : .select(match.table[generator.uniform(below: match.table.count)])
                for event in match.apply(chosen, by: seat, at: Instant(milliseconds: now)).events {
                    expectSame(.event(WireEvent(match: "game-\(seed)", seq: Int(now), time: now, body: .rules(event))))
                }
            }
        }
    }

    @Test func acksAndInsightsMatch() {
        for id: JSONValue in [0, 42, JSONValue.int(Int64.max), JSONValue.int(Int64.min), "text id", "é\""] { expectSame(.ack(id: id, seq: 9)) }
        expectSame(.insight(match: "x", seq: 0, setsOnTable: 1_080))
    }

    @Test func decimalsAreWrittenLikeTheGenericWriter() {
        for value: Int64 in [0, 1, -1, 9, 10, 99, 100, 12_345, .max, .min, -9_000_000_000] {
            var bytes: [UInt8] = []
            JSONObjectWriter.appendDecimal(value, to: &bytes)
            #expect(String(decoding: bytes, as: UTF8.self) == String(value))
        }
    }

    #if DEBUG
    /// The direct writer's output matches the generic encoder only while keys come sorted; a debug
    /// build stops a line written out of order instead of sending it.
    @Test func aKeyOutOfOrderStopsADebugBuild() async {
        await #expect(processExitsWith: .failure) {
            var writer = JSONObjectWriter()
            writer.int("seq", 1)
            writer.string("match", "x")
            _ = writer.line()
        }
        var sorted = JSONObjectWriter()
        sorted.string("match", "x")
        sorted.int("seq", 1)
        #expect(String(decoding: sorted.line(), as: UTF8.self) == "{\"match\":\"x\",\"seq\":1}\n")
    }
    #endif
}
