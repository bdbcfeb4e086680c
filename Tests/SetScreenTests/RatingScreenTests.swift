import SetRules
import SetWire
import Testing
@testable import SetScreen

/// Ratings on screen at 80×24: both players' beside their names (`?` while provisional), and the
/// game-over box tells how the rated game moved each.
@Suite struct RatingScreenTests {
    static let small = TerminalSize(columns: 80, rows: 24)

    @Test func theScoreboardShowsBothRatingsAndGameOverTheirChange() {
        var view = ClientFixtures.view()
        view.players[0].rating = 1500
        view.players[0].provisional = true
        view.players[1].rating = 1712
        var app = ClientFixtures.app(view, size: Self.small)
        let board = ClientTrustTests.text(app).split(separator: "\n").first.map(String.init) ?? ""
        #expect(board.contains("alice (you) 1500? 42") && board.contains("bob 1712 17"), "\(board)")

        let result = MatchResult(reason: .resigned, by: .second, scores: [42, 17], winner: .first)
        let changes = [RatingChange(seat: .first, before: 1500, after: 1538, provisional: true),
                       RatingChange(seat: .second, before: 1712, after: 1700, provisional: false)]
        _ = app.receive(ClientFixtures.event(.gameOver(result, seed: 9, ratings: changes), seq: 6), at: 0)
        let screen = ClientTrustTests.text(app)
        #expect(screen.contains("alice 1500 → 1538?, +38") && screen.contains("bob 1712 → 1700, -12"), "\(screen)")
        #expect(screen.split(separator: "\n").allSatisfy { $0.count <= 80 })
        let after = screen.split(separator: "\n").first.map(String.init) ?? ""
        #expect(after.contains("alice (you) 1538?") && after.contains("bob 1700"), "\(after)")
    }

    /// A solo game and a duel with a guest are never rated: they showed "1500?" beside the name.
    @Test func unratedGamesShowNoRating() {
        var solo = ClientFixtures.view(mode: .solo)
        solo.players[0].rating = 1500
        solo.players[0].provisional = true
        let soloBoard = ClientTrustTests.text(ClientFixtures.app(solo, size: Self.small)).split(separator: "\n").first.map(String.init) ?? ""
        #expect(soloBoard.contains("alice 42") && !soloBoard.contains("1500"), "\(soloBoard)")
        var guest = ClientFixtures.view()
        guest.players[0].rating = 1500
        guest.players[0].provisional = true
        let guestBoard = ClientTrustTests.text(ClientFixtures.app(guest, size: Self.small)).split(separator: "\n").first.map(String.init) ?? ""
        #expect(guestBoard.contains("alice (you) 42") && !guestBoard.contains("1500"), "bob is a guest: \(guestBoard)")
    }

    /// A resignation before any set aborts the game unrated: the winner was told "You win!".
    @Test func aResignationBeforeAnySetIsAbortedNotWon() {
        var view = ClientFixtures.view()
        view.players[0].score = 0
        view.players[1].score = -10
        var app = ClientFixtures.app(view, size: Self.small)
        let result = MatchResult(reason: .resigned, by: .second, scores: [0, -10], winner: .first)
        _ = app.receive(ClientFixtures.event(.gameOver(result, seed: 9), seq: 6), at: 0)
        let screen = ClientTrustTests.text(app)
        #expect(!screen.contains("You win") && screen.contains("Aborted: no set was taken"), "\(screen)")
        #expect(screen.contains("bob resigned before any set: no result, unrated"), "\(screen)")
        // Once a set was taken the same resignation is a win.
        var played = ClientFixtures.view()
        played.deck = 66
        var later = ClientFixtures.app(played, size: Self.small)
        _ = later.receive(ClientFixtures.event(.gameOver(MatchResult(reason: .resigned, by: .second, scores: [30, 0], winner: .first),
                                                         seed: 9), seq: 6), at: 0)
        #expect(ClientTrustTests.text(later).contains("You win!"))
    }

    /// Resigning before any set left "you resigned: bob wins" on the terminal: nobody won.
    @Test func resigningBeforeAnySetSaysTheGameIsAborted() {
        var view = ClientFixtures.view()
        view.players[0].score = 0
        view.players[1].score = 0
        var app = ClientFixtures.app(view, size: Self.small)
        _ = app.input(.key(.character("q")), at: 0)
        _ = app.input(.key(.character("x")), at: 0)
        // It leaves once the end is told (or at the deadline), saying what became of the game.
        let effects = app.tick(at: ClientApp.resignedLeaveWaitMs)
        #expect(effects.last == .quit(status: 0, message: "setgame: you resigned before any set: the game is aborted, unrated"), "\(effects)")
    }
}
