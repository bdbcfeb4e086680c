import SetRules
import SetWire
import Testing
@testable import SetScreen

/// Labels belong to cards, not places: a key typed for a card means that card until it leaves.
@Suite struct LabelBookTests {
    static let fifteen = Array(Card.all.prefix(15))

    @Test func aSetTakenFromFifteenLeavesTheOtherTwelveWithTheirLabels() {
        var book = LabelBook()
        book.update(Self.fifteen)
        let before = Self.fifteen.map { book.label(of: $0) }
        book.update(Array(Self.fifteen.dropFirst(3)))
        #expect(Self.fifteen.dropFirst(3).map { book.label(of: $0) } == Array(before.dropFirst(3)))
        #expect(book.match("1") == .none && book.match("3") == .none, "the gone cards' labels mean nothing")
        #expect(book.match("g") == .card(Card.all[14]))
        // New cards take the free labels, lowest first, in table order.
        book.update(Array(Self.fifteen.dropFirst(3)) + Card.all[20..<22])
        #expect(book.label(of: Card.all[20]) == "1" && book.label(of: Card.all[21]) == "2")
    }

    @Test func inTheAppATakenSetRelabelsNobodyAndKeysFollowTheirCards() {
        var app = ClientFixtures.app(ClientFixtures.view(cards: 15, mode: .solo))
        let rest = Array(Self.fifteen.dropFirst(3))
        _ = app.receive(ClientFixtures.event(.rules(.setTaken(seat: .first, cards: Array(Self.fifteen.prefix(3)), points: 3, score: 3)), seq: 6), at: 0)
        _ = app.receive(ClientFixtures.event(.rules(.tableChanged(removed: Array(Self.fifteen.prefix(3)), added: [], table: rest, deckCount: 66)), seq: 7), at: 0)
        #expect(app.state.view?.table == rest)
        #expect(app.state.labels.label(of: Card.all[3]) == "4" && app.state.labels.label(of: Card.all[14]) == "g")
        #expect(app.input(.key(.character("4")), at: 1) == [.send(.act(.select(Card.all[3]), seat: nil))])
        #expect(app.input(.key(.character("g")), at: 2) == [.send(.act(.select(Card.all[14]), seat: nil))])
        #expect(app.input(.key(.character("1")), at: 3).isEmpty, "its card has gone")
    }

    @Test func aResizeKeepsEveryLabel() {
        var app = ClientFixtures.app(ClientFixtures.view(cards: 15, mode: .solo), size: TerminalSize(columns: 120, rows: 40))
        let before = Self.fifteen.map { app.state.labels.label(of: $0) }
        app.resize(to: TerminalSize(columns: 80, rows: 24), at: 0)
        #expect(Self.fifteen.map { app.state.labels.label(of: $0) } == before)
        app.resize(to: TerminalSize(columns: 60, rows: 20), at: 0)
        #expect(Self.fifteen.map { app.state.labels.label(of: $0) } == before)
        #expect(app.input(.key(.character("f")), at: 0) == [.send(.act(.select(Card.all[13]), seat: nil))])
    }

    /// Issue 23 item 6: the opponent takes a set; the key pressed during their flourish was meant
    /// for a card that has just gone, and must not claim (and cost 10 five seconds later).
    @Test func aKeyForACardThatHasJustGoneDoesNothing() {
        var app = ClientFixtures.app(ClientFixtures.view(), animation: true)
        let taken = Array(Card.all.prefix(3)), added = Array(Card.all[12..<15])
        let table = added + Array(Card.all[3..<12])
        _ = app.receive(ClientFixtures.event(.rules(.setTaken(seat: .second, cards: taken, points: 3, score: 20)), seq: 6), at: 10_000)
        _ = app.receive(ClientFixtures.event(.rules(.tableChanged(removed: taken, added: added, table: table, deckCount: 66)), seq: 7), at: 10_000)
        #expect(app.state.labels.label(of: Card.all[12]) == "1", "the new card takes the free label")
        #expect(app.input(.key(.character("1")), at: 10_100).isEmpty, "during the flourish: the card it was meant for has gone")
        #expect(!app.state.claimPending)
        // Once the new card has landed face up, its label is its own.
        #expect(app.input(.key(.character("1")), at: 10_000 + Motion.flourishDuration + Motion.enterDuration)
                == [.send(.act(.claim, seat: nil, seen: 7)), .send(.act(.select(Card.all[12]), seat: nil))])
    }
}
