import SetRules
import SetWire
import Testing
@testable import SetScreen

/// Notices say what is true now: the same words do not stack side by side, and a notice about a
/// window leaves with the window.
@Suite struct StaleNoticeTests {
    static let standard = TerminalSize(columns: 80, rows: 24)

    /// Three refused deals read "no room …" once, not "no room … · no room …".
    @Test func aRepeatedNoticeShowsOnce() {
        var app = ClientFixtures.app(ClientFixtures.view(cards: 30, mode: .solo), size: Self.standard)
        for time in [0, 100, 200] { _ = app.perform(.deal, at: Int64(time)) }
        let status = app.compose(at: 201).textLines[1]
        #expect(status.components(separatedBy: "no room").count == 2, "'\(status)'")
        #expect(app.state.notices.count == 1)
        // It stays up its full time from the last press.
        #expect(app.compose(at: 200 + Notice.lifetime - 1).textLines[1].contains("no room"))
    }

    /// "your second chance" went on showing after the second chance was over.
    @Test func aSecondChanceNoticeLeavesWithItsWindow() {
        var app = ClientFixtures.app(ClientFixtures.view(), size: Self.standard)
        let window = Window(kind: .secondChance, holder: .first, opened: Instant(milliseconds: 1_000),
                            deadline: Instant(milliseconds: 11_000))
        _ = app.receive(ClientFixtures.event(.rules(.windowOpened(window)), seq: 6), at: 10)
        #expect(app.compose(at: 11).textLines[1].contains("your second chance"))
        _ = app.receive(ClientFixtures.event(.rules(.windowClosed(window, .passed)), seq: 7), at: 20)
        let status = app.compose(at: 21).textLines[1]
        #expect(!status.contains("second chance"), "'\(status)'")
    }

    /// A new solo game is new: its cards take labels in table order whatever the last game's
    /// cards held, and the last game's notices ("your seat is back") are gone (issue 45).
    @Test func aNewSoloGameLabelsItsCardsAfreshAndDropsTheOldNews() {
        var app = ClientFixtures.app(ClientFixtures.view(mode: .solo), size: Self.standard)
        app.state.note("your seat is back", .good, at: 0, for: 3 * Notice.lifetime)
        let table = Array(app.state.view!.table.reversed())
        let start = GameStart(game: 2, table: table, deck: 69, scores: [0], commitment: String(repeating: "0", count: 64))
        _ = app.receive(ClientFixtures.event(.gameStarted(start), seq: 6), at: 100)
        let keys = CardLabels(count: table.count)
        #expect(table.indices.map { app.state.labels.label(of: table[$0]) } == table.indices.map { keys.label(for: $0) })
        let status = app.compose(at: 101).textLines[1]
        #expect(!status.contains("your seat is back"), "'\(status)'")
    }

    /// News of the same thing replaces the stale one: "bob left · bob is back" stood side by
    /// side, the older saying the opposite of the newer (issue 45).
    @Test func aPlayerBackReplacesTheNewsThatTheyLeft() {
        var app = ClientFixtures.app(ClientFixtures.view(), size: Self.standard)
        _ = app.receive(ClientFixtures.event(.presence(seat: .second, present: false, forfeitAt: 120_000), seq: 6), at: 10)
        #expect(app.compose(at: 11).textLines[1].contains("bob left"))
        _ = app.receive(ClientFixtures.event(.presence(seat: .second, present: true, forfeitAt: nil), seq: 7), at: 20)
        let status = app.compose(at: 21).textLines[1]
        #expect(status.contains("bob is back") && !status.contains("left"), "'\(status)'")
    }
}
