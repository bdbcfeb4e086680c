import SetRules
import SetWire
import Testing

@Suite struct MessageRoundTripTests {
    let window = Window(kind: .claim, holder: .second, opened: Instant(milliseconds: 100), deadline: Instant(milliseconds: 5_100))
    let result = MatchResult(reason: .noSetsLeft, by: nil, scores: [40, 12], winner: .first)
    var cards: [Card] { Array(Card.all[10..<13]) }

    var everyEventBody: [EventBody] {
        [
            .rules(.selectionChanged(seat: .first, selection: cards)),
            .rules(.windowOpened(window)),
            .rules(.windowClosed(window, .expired)),
            .rules(.setTaken(seat: .second, cards: cards, points: 24, score: 48)),
            .rules(.notASet(seat: .first, cards: cards, penalty: 10, score: -10)),
            .rules(.penalised(seat: .first, reason: .dealtWithSetOnTable, points: 15, score: -25)),
            .rules(.tableChanged(removed: cards, added: [], table: Array(Card.all.prefix(9)), deckCount: 0)),
            .rules(.hintShown(seat: .first, cards: cards, cost: 15, score: 0)),
            .rules(.rematchRequested(seat: .second)),
            .rules(.rematchAgreed),
            .gameOver(result, seed: .max),
            .gameStarted(GameStart(game: 2, table: Array(Card.all.prefix(12)), deck: 69, scores: [0, 0], commitment: "ab")),
            .playerJoined(seat: .second, name: "bøb ☺"),
            .playerJoined(seat: .first, name: "ann", rating: 1662, provisional: true),
            .gameOver(result, seed: 7, ratings: [RatingChange(seat: .first, before: 1500, after: 1338, provisional: true),
                                                 RatingChange(seat: .second, before: 1712, after: 1720, provisional: false)]),
            .presence(seat: .first, present: false, forfeitAt: 99_000),
            .presence(seat: .first, present: true, forfeitAt: nil),
            .resumed(window: window, tableChangedAt: 77),
            .resumed(window: nil, tableChangedAt: 77),
            .spectators(count: 3),
        ]
    }

    @Test func everyEventSurvivesTheWire() {
        for (index, body) in everyEventBody.enumerated() {
            let event = WireEvent(match: "m-1", seq: index + 1, time: 1_234, body: body)
            let line = ServerMessageCoding.line(.event(event))
            #expect(line.last == 0x0A)
            #expect(ServerMessageCoding.decode(Array(line.dropLast())) == .success(.event(event)), "\(body)")
        }
    }

    @Test func everyServerMessageSurvivesTheWire() {
        let view = MatchView(
            match: "m", seq: 9, time: 5, mode: .duel, phase: .over, game: 3,
            players: [PlayerInfo(seat: .first, name: "ann", present: true, score: 40),
                      PlayerInfo(seat: .second, name: "bob", present: false, score: 12)],
            spectators: 2, table: cards, deck: 0, selection: [cards[0]], selectionSeat: .second, window: window,
            shown: Match.ShownTrio(cards: cards, isSet: false), tableChangedAt: 4, rules: .standard, commitment: "cafe",
            result: result, seed: 18_446_744_073_709_551_615, rematchAsked: [.first], setsOnTable: 2, forfeitAt: 9_000)
        var limits = ServerLimits()
        limits.maxLineBytes = 1_000
        let messages: [ServerMessage] = [
            .welcome(server: "setgame", versions: [1], time: 3, limits: limits),
            .joined(role: .player, match: "m", mode: .duel, seat: .second, token: "tok", resumed: true, id: "j"),
            .joined(role: .spectator, match: "m", mode: .solo, seat: nil, token: nil, resumed: false, id: nil),
            .snapshot(view),
            .insight(match: "m", seq: 4, setsOnTable: 6),
            .matches([MatchListing(name: "m", mode: .duel, phase: .playing, players: view.players, spectators: 1)], next: nil, id: 8),
            .matches([], next: "1.0.duel-7", id: nil),
            .ack(id: 5, seq: 6),
            .pong(time: 9, clientTime: 8, id: nil),
            .error(WireError(.claimTaken, "late", details: ["holder": 0, "leadMs": 12]), id: "x"),
            .error(WireError(.slowConsumer, "slow", fatal: true), id: nil),
            .goodbye(reason: "bye"),
        ]
        for message in messages {
            let line = ServerMessageCoding.line(message)
            #expect(ServerMessageCoding.decode(Array(line.dropLast())) == .success(message), "\(message)")
        }
    }

    @Test func everyClientMessageSurvivesTheWire() {
        let requests: [ClientRequest] = [
            ClientRequest(id: 1, .join(JoinRequest(role: .player, name: "ann", match: "m", mode: .solo, seat: .second,
                                                   token: "t", lastSeq: 4))),
            ClientRequest(.join(JoinRequest(role: .spectator, name: "eve"))),
            ClientRequest(id: "x", .list()),
            ClientRequest(id: "y", .list(after: "0.3.demo", limit: 10)),
            ClientRequest(.snapshot),
            ClientRequest(.ping(time: 42)),
            ClientRequest(.ping(time: nil)),
            ClientRequest(.act(.select(Card.all[80]), seat: .first)),
        ] + [Action.claim, .deal, .hint, .pass, .resign, .rematch].map { ClientRequest(.act($0, seat: nil)) }
        for request in requests {
            let line = ClientMessageEncoder.line(request)
            #expect(ClientMessageDecoder.decode(Array(line.dropLast())) == .success(request), "\(request)")
        }
    }

    @Test func aCardMayBeNamedInsteadOfNumbered() {
        let decoded = ClientMessageDecoder.decode(Array(#"{"type":"select","card":"2 striped green diamonds"}"#.utf8))
        #expect(decoded == .success(ClientRequest(.act(.select(Card(.two, .striped, .green, .diamond)), seat: nil))))
    }

    @Test func unknownFieldsAreIgnoredAndNullMeansAbsent() {
        let decoded = ClientMessageDecoder.decode(Array(#"{"type":"deal","colour":"mauve","seat":null}"#.utf8))
        #expect(decoded == .success(ClientRequest(.act(.deal, seat: nil))))
    }

    @Test func errorsCarryTheRequestIdAndNameTheField() {
        guard case .failure(let error) = ClientMessageDecoder.decode(Array(#"{"type":"select","card":true,"id":"q1"}"#.utf8)) else {
            Issue.record("should fail")
            return
        }
        #expect(error.code == .badField)
        #expect(error.details["field"] == "card")
        #expect(error.details["id"] == "q1")
        #expect(error.message == "\"card\" must be a card id 0-80 or a card name like \"2 striped green diamonds\", not a boolean.")
    }

    /// A refused value is said as it came when it is a number, by its length when it is a string
    /// (never echoed back to be shown), by its kind otherwise.
    @Test func aRefusedValueIsDescribedWithoutEchoingAString() {
        func message(_ line: String) -> String? {
            if case .failure(let error) = ClientMessageDecoder.decode(Array(line.utf8)) { error.message } else { nil }
        }
        #expect(message(#"{"type":"join","name":""}"#)?.hasSuffix(", not an empty string.") == true)
        #expect(message(#"{"type":"join","name":"a\u001Bb"}"#)?.hasSuffix(", not a string of 3 characters.") == true)
        #expect(message(#"{"type":"join","name":"ann","seat":2}"#)?.hasSuffix(", not 2.") == true)
        #expect(message(#"{"type":"join","name":"ann","seat":[1]}"#)?.hasSuffix(", not an array.") == true)
    }

    /// A name refused for a character it may not hold says so: "must be 1-24 printable
    /// characters, not a string of 6 characters" read as if `alice` + a zero-width space were too long.
    @Test func aNameRefusedSaysWhyItIsRefused() {
        func message(_ name: String) -> String? {
            let line = "{\"type\":\"join\",\"name\":\"\(name)\"}"
            if case .failure(let error) = ClientMessageDecoder.decode(Array(line.utf8)) { return error.message } else { return nil }
        }
        #expect(message("alice\\u200B") == "\"name\" must be printable characters only, with no control, format or unassigned character (such as a zero-width space), not a string of 6 characters.")
        #expect(message(" alice") == "\"name\" must be a name with no space at either end, not a string of 6 characters.")
        #expect(message(String(repeating: "a", count: 25)) == "\"name\" must be 1-24 printable characters, not a string of 25 characters.")
        #expect(message("alice") == nil)
    }

    @Test func everyRuleRefusalHasAnErrorCode() {
        let refusals: [RuleRefusal] = [
            .matchOver, .matchNotOver, .noSuchSeat(.second), .claimFirst, .notYourWindow(holder: .first),
            .claimTaken(holder: .first, leadMs: 3), .alreadyYourWindow, .finishYourClaim, .cardNotOnTable(Card.all[0]),
            .deckEmpty, .noWindowToPass, .notInSolo("x"), .hintsDisabled, .noSetOnTable, .rematchAlreadyAsked,
        ]
        for refusal in refusals {
            #expect(ErrorCode(rawValue: refusal.code) != nil, "\(refusal.code)")
            #expect(WireError(refusal).code.rawValue == refusal.code)
        }
        #expect(WireError(.claimTaken(holder: .second, leadMs: 40), playerNames: ["ann", "bob"]).message
                == "bob called \"Set!\" first, by 40 ms.")
    }

    /// Names are given by seat, never patched into the text: a player may be called "Player 2".
    @Test func playersAreNamedBySeatWhateverTheirNames() {
        let refusal = RuleRefusal.notYourWindow(holder: .first)
        #expect(WireError(refusal, playerNames: ["Player 2", "Player 1"]).message == "Player 2 holds the window.")
        #expect(WireError(.claimTaken(holder: .second, leadMs: 5), playerNames: ["Player 2", "Player 1"]).message
                == "Player 1 called \"Set!\" first, by 5 ms.")
        #expect(WireError(refusal).message == "Player 1 holds the window.")
    }

    @Test func theSeedCommitmentIsTheHashOfTheSeedText() {
        // printf 'setgame:42' | sha256sum
        #expect(SeedCommitment.commitment(for: 42) == SHA256.hex("setgame:42"))
        #expect(SeedCommitment.verify(seed: 42, against: SeedCommitment.commitment(for: 42).uppercased()))
        #expect(!SeedCommitment.verify(seed: 43, against: SeedCommitment.commitment(for: 42)))
    }
}

@Suite struct TakeOverFlagTests {
    @Test func joinCarriesTakeOverOnlyWhenAsked() {
        let asked = ClientRequest(.join(JoinRequest(name: "ann", match: "m", token: "t", takeOver: true)))
        let line = String(decoding: ClientMessageEncoder.line(asked), as: UTF8.self)
        #expect(line.contains(#""takeOver":true"#))
        #expect(ClientMessageDecoder.decode(ClientMessageEncoder.line(asked)) == .success(asked))
        let plain = ClientRequest(.join(JoinRequest(name: "ann", match: "m", token: "t")))
        #expect(!String(decoding: ClientMessageEncoder.line(plain), as: UTF8.self).contains("takeOver"))
    }

    @Test func takeOverMustBeABoolean() {
        guard case .failure(let error) = ClientMessageDecoder.decode(Array(#"{"type":"join","name":"ann","token":"t","takeOver":"yes"}"#.utf8)) else {
            Issue.record("should fail")
            return
        }
        #expect(error.code == .badField)
        #expect(error.details["field"] == .string("takeOver"))
    }
}

/// The account messages: every question and answer survives the wire, and a join's key and
/// casual flag with it.
@Suite struct AccountMessageTests {
    @Test func everyQuestionSurvivesTheWire() throws {
        let key = String(repeating: "0f", count: 32)
        let questions: [AccountQuery] = [
            .profile(name: "ann"), .history(name: nil, after: nil, limit: nil), .history(name: "bøb", account: key, after: "20", limit: 5),
            .crosstable(name: "ann", other: "bob"), .leaderboard(variant: .ultra, after: "40", limit: 50)]
        for query in questions {
            let line = ClientMessageEncoder.line(ClientRequest(id: "q", .account(query)))
            #expect(try ClientMessageDecoder.decode(Array(line.dropLast())).get() == ClientRequest(id: "q", .account(query)))
        }
        var join = JoinRequest(name: "ann")
        join.account = key
        join.casual = true
        join.bot = true
        let line = ClientMessageEncoder.line(ClientRequest(.join(join)))
        #expect(try ClientMessageDecoder.decode(Array(line.dropLast())).get() == ClientRequest(.join(join)))
    }

    @Test func aKeyThatIsNotOneIsABadField() {
        for bad in [#""A1""#, "\"\(String(repeating: "A", count: 64))\"", "42"] {
            let result = ClientMessageDecoder.decode(Array(#"{"type":"join","name":"ann","account":\#(bad)}"#.utf8))
            guard case .failure(let error) = result else { Issue.record("accepted \(bad)"); continue }
            #expect(error.code == .badField && error.details["field"] == "account")
        }
    }
}
