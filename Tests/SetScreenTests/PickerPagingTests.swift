import SetRules
@testable import SetScreen
import SetWire
import Testing

/// The `watch` picker pages through `list`, so a match past the first page can be chosen.
@Suite struct PickerPagingTests {
    static func listings(_ range: ClosedRange<Int>) -> [MatchListing] {
        range.map { MatchListing(name: "match-\($0)", mode: .duel, phase: .playing, players: ClientFixtures.players, spectators: 0) }
    }

    /// A spectator without a match, greeted at `now`.
    static func greeted(at now: Int64 = 0) -> (ClientApp, [ClientEffect]) {
        var app = ClientApp(state: ClientState(options: ClientFixtures.configuration(role: .spectator),
                                               size: TerminalSize(columns: 80, rows: 24)))
        _ = app.start(at: now)
        _ = app.connected(at: now)
        let effects = app.receive(.welcome(server: "t", versions: [1], time: 0, limits: ServerLimits()), at: now)
        return (app, effects)
    }

    @Test func everyPageIsReadAndTheLastMatchCanBeWatched() {
        var (app, greeting) = Self.greeted()
        #expect(greeting.contains(.send(.list())), "the first page as the server sizes it")
        _ = app.receive(.matches(Self.listings(1...20), next: "c20", id: nil), at: 10)
        #expect(app.tick(at: 10 + ClientApp.listPageGap - 1).isEmpty, "pages are spaced out for the rate limit")
        #expect(app.tick(at: 10 + ClientApp.listPageGap) == [.send(.list(after: "c20", limit: ClientApp.listPageLimit))])
        _ = app.receive(.matches(Self.listings(20...35), next: nil, id: nil), at: 300)
        #expect(app.state.listings?.map(\.name) == (1...35).map { "match-\($0)" }, "a match that moved up is listed once")

        _ = app.input(.key(.up), at: 300)  // from the first line up wraps to the last
        let screen = app.compose(at: 300).textLines
        #expect(screen.contains { $0.contains("match-35") }, "the chosen line scrolls into view")
        #expect(app.input(.key(.enter), at: 300) == [.send(.join(JoinRequest(role: .spectator, name: "alice", match: "match-35")))])
    }

    @Test func aClickOnAScrolledListPicksTheLineShown() throws {
        var (app, _) = Self.greeted()
        _ = app.receive(.matches(Self.listings(1...40), next: nil, id: nil), at: 0)
        _ = app.input(.key(.up), at: 0)
        let screen = app.compose(at: 0).textLines
        let row = try #require(screen.firstIndex { $0.contains("match-40") })
        #expect(app.input(.mouse(MouseEvent(button: .left, kind: .press, column: 10, row: row)), at: 0)
            == [.send(.join(JoinRequest(role: .spectator, name: "alice", match: "match-40")))])
    }

    @Test func aWholeListIsReadAgainFromItsFirstPageAfterTheInterval() {
        var (app, _) = Self.greeted()
        _ = app.receive(.matches(Self.listings(1...20), next: "c20", id: nil), at: 0)
        #expect(app.state.listings?.count == 20, "the first pages show while the rest are read")
        _ = app.tick(at: ClientApp.listPageGap)
        _ = app.receive(.matches(Self.listings(21...22), next: nil, id: nil), at: 250)
        #expect(app.tick(at: 250 + ClientApp.listInterval - 1).isEmpty)
        #expect(app.tick(at: 250 + ClientApp.listInterval) == [.send(.list())])
        _ = app.receive(.matches(Self.listings(1...3), next: "c3", id: nil), at: 2_300)
        #expect(app.state.listings?.count == 22, "a shorter first page does not cut the list shown until the sweep ends")
    }
}
