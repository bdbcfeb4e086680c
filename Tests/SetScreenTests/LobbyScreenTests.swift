import SetRules
import SetWire
import Testing
@testable import SetScreen

/// The lobby screen drawn (issue 36, item 5): players with variant and rating, open seats and
/// live duels, a challenge to answer with its seconds left, at 80×24, small and large; nothing
/// cut inside a word, and a long list scrolled to the pick.
@Suite struct LobbyScreenTests {
    static func text(_ lobby: LobbyState, _ columns: Int, _ rows: Int, at now: Int64 = 2_000) -> [String] {
        DoorMenuTests.trimmed(LobbyView.render(lobby, size: TerminalSize(columns: columns, rows: rows), at: now))
    }

    /// ann's lobby with a challenge from bob waiting: 59 s left at local 2 s.
    static func challenged() -> LobbyState {
        var lobby = LobbyStateTests.listed()
        let open = ChallengeNotice(from: "bob", to: "ann", variant: .junior, state: .open, expiresAt: 61_000 + LobbyStateTests.offset,
                                   rating: 1712)
        _ = lobby.take(.challenge(open), at: 1_500)
        return lobby
    }

    @Test func at80x24() {
        #expect(Self.text(Self.challenged(), 80, 24) == [
            "  Who is here: you are ann, Junior",
            "",
            "  Players here",
            "  > 1.  bob              Classic    1712",
            "    2.  cy               UltraSet   new",
            "  Open seats",
            "    3.  friday         dee 1623?  UltraSet",
            "  Live duels",
            "    4.  duel-4         fayzer 1712 12 vs guest-4821 new 9  2 watching",
        ] + Array(repeating: "", count: 12) + [
            "  bob (1712) challenges you to Junior, 59 s left: a accept, n decline",
            "  Up/Down or a number: pick. Enter: challenge the player, take the seat or watch",
            "  the duel. d quick duel, a accept, n decline, r refresh, q quit",
        ])
    }

    @Test func theCountdownFollowsTheClock() {
        let lines = Self.text(Self.challenged(), 80, 24, at: 50_000)
        #expect(lines.contains("  bob (1712) challenges you to Junior, 11 s left: a accept, n decline"))
    }

    @Test func aProvisionalRatingIsMarkedAndAGuestHasNone() {
        var lobby = LobbyState(me: "ann")
        _ = lobby.take(.lobbyListed([LobbyEntry(name: "bob", variant: .classic, rating: 1500, provisional: true),
                                  LobbyEntry(name: "guest-7", variant: .classic)]), at: 0)
        let lines = Self.text(lobby, 80, 24)
        #expect(lines.contains("  > 1.  bob              Classic    1500?"))
        #expect(lines.contains("    2.  guest-7          Classic    new"))
        #expect(lines.contains("      nobody else yet: d waits for the next comer") == false)
        #expect(Self.text(LobbyState(me: "ann"), 80, 24).contains("      nobody else yet: d waits for the next comer"))
    }

    /// Issue 45 item 9: one way to show a rating everywhere: a provisional challenger's
    /// challenge says "1500?" as the list does, and a guest's says "new", not "(unrated)".
    @Test func aChallengeShowsTheRatingAsTheListDoes() {
        var lobby = LobbyState(me: "ann")
        _ = lobby.take(.welcomed(serverTime: 0, limits: ServerLimits()), at: 0)
        _ = lobby.take(.lobbyListed([LobbyEntry(name: "bob", variant: .classic, rating: 1500, provisional: true),
                                  LobbyEntry(name: "gus", variant: .classic)]), at: 0)
        for (from, rating) in [("bob", 1500 as Int?), ("gus", nil)] {
            _ = lobby.take(.challenge(ChallengeNotice(from: from, to: "ann", variant: .classic, state: .open, expiresAt: 60_000,
                                                         rating: rating)), at: 0)
        }
        let lines = Self.text(lobby, 100, 24, at: 0)
        #expect(lines.contains("  bob (1500?) challenges you to Classic, 60 s left: a accept, n decline"))
        #expect(lines.contains("  gus (new) challenges you to Classic, 60 s left: next after this one"))
    }

    /// Issue 45 item 9: notices in the order they happened. Ann declined bob, then bob
    /// challenged again: the new challenge shows below (after) the decline, not above it.
    @Test func noticesShowInTheOrderTheyHappened() throws {
        var lobby = LobbyState(me: "ann")
        _ = lobby.take(.welcomed(serverTime: 0, limits: ServerLimits()), at: 0)
        let open = ChallengeNotice(from: "bob", to: "ann", variant: .classic, state: .open, expiresAt: 60_000, rating: 1712)
        _ = lobby.take(.challenge(open), at: 0)
        var declined = open
        (declined.state, declined.expiresAt, declined.rating) = (.declined, nil, nil)
        _ = lobby.take(.challenge(declined), at: 100)
        _ = lobby.take(.challenge(open), at: 200)
        let lines = Self.text(lobby, 100, 24, at: 200)
        let decline = try #require(lines.firstIndex(of: "  You declined bob's challenge."))
        let again = try #require(lines.firstIndex(of: "  bob (1712) challenges you to Classic, 60 s left: a accept, n decline"))
        #expect(decline < again)
    }

    /// Every word on screen is whole, or ends where "…" says it was cut: the words are those the
    /// same screen shows at a size where nothing is cut.
    @Test(arguments: [(80, 24), (40, 12), (30, 10), (160, 50), (200, 60)])
    func nothingIsCutInsideAWord(columns: Int, rows: Int) {
        var lobby = Self.challenged()
        _ = lobby.take(.lobbyListed([LobbyEntry(name: "ann", variant: .junior),
                                  LobbyEntry(name: "an-extraordinarily-long-n", variant: .chain, rating: 2101),
                                  LobbyEntry(name: "bob", variant: .classic, rating: 1712)]), at: 1_600)
        let whole = Set(Self.text(lobby, 400, 80).flatMap { $0.split(separator: " ").map(String.init) })
        // Where there is room, every name and word is whole (a name wider than its column too).
        #expect(whole.isSuperset(of: ["an-extraordinarily-long-n", "2101", "Set-Chain", "Junior,", "decline"]), "\(whole.sorted())")
        let lines = Self.text(lobby, columns, rows)
        #expect(lines.count == rows)
        for line in lines {
            #expect(line.displayWidth <= columns, "\(line)")
            // The scroll markers ("↓ 5 more") are no cut text.
            if line.contains("↑ ") || line.contains("↓ ") { continue }
            for word in line.split(separator: " ").map(String.init) where !whole.contains(word) {
                #expect(word.hasSuffix("…") && (word == "…" || whole.contains(String(word.dropLast()))), "cut inside a word: \(word) in \(line)")
            }
        }
        // The challenge and the way to answer it are on every screen.
        #expect(lines.contains { $0.contains("challenges") }, "\(columns)×\(rows)")
        #expect(lines.contains { $0.contains("q quit") || $0.contains("accept") }, "\(columns)×\(rows)")
    }

    @Test func aLongListScrollsToKeepThePickInSight() {
        var lobby = LobbyState(me: "ann")
        let many = (1...40).map { LobbyEntry(name: "p\($0)", variant: .classic, rating: 1400 + $0) }
        _ = lobby.take(.lobbyListed(many), at: 0)
        let top = Self.text(lobby, 80, 24)
        #expect(top.contains("  > 1.  p1               Classic    1401"))
        #expect(top.contains { $0.hasPrefix("    ↓ ") && $0.hasSuffix(" more") })
        for _ in 0..<29 { _ = lobby.input(.key(.down), at: 0) }
        let lines = Self.text(lobby, 80, 24)
        #expect(lines.contains("  > 30. p30              Classic    1430"))
        #expect(lines.contains { $0.hasPrefix("    ↑ ") })
        #expect(!lines.contains { $0.contains(" 1. p1 ") })
        // At the smallest size too.
        #expect(Self.text(lobby, 30, 10).contains { $0.contains("> 30. p30") })
    }
}
