import SetRules
import SetServer
import SetWire
import Testing

/// What `setgame replay` prints for each kind of event, and what it leaves out.
struct ReplayTextTests {
    let names = ["ann", "bob"]
    let trio = [Card.all[9], Card.all[16], Card.all[14]]

    func line(_ body: EventBody, variant: Variant = .classic) -> String? {
        ReplayText.describe(body, names: names, variant: variant)
    }

    @Test func playersGamesAndResultsAreNamed() {
        #expect(line(.playerJoined(seat: .second, name: "bob")) == "bob sits in seat 1")
        let start = GameStart(game: 2, table: Array(Card.all.prefix(12)), deck: 69, scores: [0, 0],
                              commitment: "0123456789abcdef0123456789abcdef")
        #expect(line(.gameStarted(start)) == "game 2 dealt: 12 cards, 69 in the deck (commitment 0123456789abcdef…)")
        let won = MatchResult(reason: .noSetsLeft, by: nil, scores: [120, 95], winner: .first)
        #expect(line(.gameOver(won, seed: 42)) == "game over (no_sets_left): 120 – 95, ann wins; seed 42 revealed")
        let tie = MatchResult(reason: .noSetsLeft, by: nil, scores: [40, 40], winner: nil)
        #expect(line(.gameOver(tie, seed: nil)) == "game over (no_sets_left): 40 – 40, a tie; seed ? revealed")
    }

    @Test func setsMistakesPenaltiesAndHintsSayWhoAndHowMuch() {
        #expect(line(.rules(.setTaken(seat: .first, cards: trio, points: 28, score: 58)))
                == "ann took a set: \(trio.map(\.name).joined(separator: ", ")) (+28, 58)")
        #expect(line(.rules(.setTaken(seat: .first, cards: trio + [Card.all[0]], points: 28, score: 58)), variant: .ultra)?
                    .hasPrefix("ann took an ultra: ") == true)
        #expect(line(.rules(.notASet(seat: .second, cards: trio, penalty: 10, score: -10)))
                == "bob picked \(trio.map(\.name).joined(separator: ", ")), not a set (−10, −10)")
        #expect(line(.rules(.penalised(seat: .second, reason: .dealtWithSetOnTable, points: 15, score: -25)))
                == "bob penalised, dealt with set on table (−15, −25)")
        #expect(line(.rules(.hintShown(seat: .first, cards: trio, cost: 15, score: 5)))
                == "ann asked for a hint: \(trio.map(\.name).joined(separator: ", ")) (−15)")
        #expect(line(.rules(.rematchRequested(seat: .second))) == "bob asks for a rematch")
        #expect(line(.rules(.rematchAgreed)) == "rematch agreed")
    }

    /// A score below zero is written with the same minus as the penalty before it: the replay
    /// printed "(−10, -10)".
    @Test func negativeScoresUseTheMinusSignOfThePenalties() {
        #expect(line(.rules(.notASet(seat: .first, cards: trio, penalty: 10, score: -10)))
                == "ann picked \(trio.map(\.name).joined(separator: ", ")), not a set (−10, −10)")
        #expect(line(.rules(.penalised(seat: .second, reason: .dealtWithSetOnTable, points: 15, score: -25)))?
                    .hasSuffix("(−15, −25)") == true)
        let lost = MatchResult(reason: .noSetsLeft, by: nil, scores: [-5, 30], winner: .second)
        #expect(line(.gameOver(lost, seed: 1)) == "game over (no_sets_left): −5 – 30, bob wins; seed 1 revealed")
        for body: EventBody in [.rules(.notASet(seat: .first, cards: trio, penalty: 10, score: -10)), .gameOver(lost, seed: 1)] {
            #expect(line(body)?.contains("-") == false, "\(line(body) ?? "")")
        }
    }

    @Test func windowsAndDealsReadAsTheyHappened() {
        let window = Window(kind: .secondChance, holder: .second, opened: Instant(milliseconds: 1_000),
                            deadline: Instant(milliseconds: 11_000))
        #expect(line(.rules(.windowOpened(window))) == "bob holds a second chance window for 10000 ms")
        #expect(line(.rules(.windowClosed(window, .expired))) == "bob's window ran out")
        #expect(line(.rules(.windowClosed(window, .passed))) == nil)
        let added = Array(Card.all[20..<23])
        #expect(line(.rules(.tableChanged(removed: [], added: added, table: Array(Card.all.prefix(15)), deckCount: 66)))
                == "3 more dealt: \(added.map(\.name).joined(separator: ", ")); 15 on the table, 66 in the deck")
        #expect(line(.rules(.tableChanged(removed: trio, added: added, table: Array(Card.all.prefix(12)), deckCount: 63)))
                == "replaced by \(added.map(\.name).joined(separator: ", ")); 63 in the deck")
        #expect(line(.rules(.tableChanged(removed: trio, added: [], table: Array(Card.all.prefix(9)), deckCount: 0)))
                == "9 on the table, 0 in the deck")
    }

    @Test func presenceSelectionsAndWatchersAreLeftOut() {
        #expect(line(.presence(seat: .first, present: false, forfeitAt: 5)) == nil)
        #expect(line(.spectators(count: 3)) == nil)
        #expect(line(.resumed(window: nil, tableChangedAt: 0)) == nil)
        #expect(line(.rules(.selectionChanged(seat: .first, selection: trio))) == nil)
    }

    @Test func aSeatWithoutAKnownNameIsStillNamed() {
        #expect(ReplayText.describe(.rules(.rematchRequested(seat: .second)), names: []) == "player 2 asks for a rematch")
    }
}
