import SetRules
import SetWire
import Testing
@testable import SetScreen

/// The lobby's state machine (issue 36, item 5): the lists asked for and refreshed on the
/// client's clock, a player picked and challenged, a challenge answered, and every way out.
@Suite struct LobbyStateTests {
    /// Server time is 99 s ahead of local time in these tests.
    static let offset: Int64 = 99_000

    /// ann, listed, with bob (rated), cy (a guest) and a waiting and a live duel.
    static func listed(account: String? = nil) -> LobbyState {
        var lobby = LobbyState(me: "ann", account: account, variant: .junior)
        _ = lobby.receive(.welcome(server: "setgame", versions: [1], time: 1_000 + offset, limits: ServerLimits()), at: 1_000)
        _ = lobby.receive(.lobby([LobbyEntry(name: "ann", variant: .junior), LobbyEntry(name: "bob", variant: .classic, rating: 1712),
                                  LobbyEntry(name: "cy", variant: .ultra)], id: nil), at: 1_000)
        _ = lobby.receive(.matches([LobbyFixtures.waiting, LobbyFixtures.live], next: nil, id: nil), at: 1_000)
        return lobby
    }

    static func enter(_ name: String, account: String? = nil) -> LobbyEffect {
        var join = JoinRequest(name: name, variant: .junior)
        join.account = account
        return .send(.lobby(.enter(join)))
    }

    @Test func theWelcomeAsksForBothListsAndTheyRefreshEveryFiveSeconds() {
        var lobby = LobbyState(me: "ann", account: "k1", variant: .junior)
        #expect(lobby.tick(at: 0).isEmpty)
        let first = lobby.receive(.welcome(server: "setgame", versions: [1], time: 500_000, limits: ServerLimits()), at: 1_000)
        #expect(first == [Self.enter("ann", account: "k1"), .send(.list())])
        #expect(lobby.nextWake(at: 1_000) == 1_000 + LobbyState.refreshMs)
        #expect(lobby.tick(at: 5_999).isEmpty)
        #expect(lobby.tick(at: 6_000) == [Self.enter("ann", account: "k1"), .send(.list())])
        #expect(lobby.input(.key(.character("r")), at: 7_000) == [Self.enter("ann", account: "k1"), .send(.list())])
        #expect(lobby.nextWake(at: 7_000) == 12_000)
    }

    @Test func rowsAreTheOtherPlayersThenOpenSeatsThenLiveDuels() {
        let lobby = Self.listed()
        #expect(lobby.rows == [.player(LobbyEntry(name: "bob", variant: .classic, rating: 1712)), .player(LobbyEntry(name: "cy", variant: .ultra)),
                               .openSeat(LobbyFixtures.waiting), .live(LobbyFixtures.live)])
        #expect(lobby.pickedIndex == 0)
    }

    @Test func aPlayerPickedByArrowOrNumberIsChallengedWithEnterOrC() {
        var lobby = Self.listed()
        #expect(lobby.input(.key(.down), at: 2_000).isEmpty)
        #expect(lobby.input(.key(.enter), at: 2_000) == [.send(.lobby(.challenge(name: "cy", variant: nil)))])
        var again = Self.listed()
        _ = again.input(.key(.character("2")), at: 2_000)
        _ = again.input(.key(.up), at: 2_000)
        #expect(again.input(.key(.character("c")), at: 2_000) == [.send(.lobby(.challenge(name: "bob", variant: nil)))])
        // c on a match is not a challenge: it says what to do.
        _ = again.input(.key(.character("3")), at: 2_000)
        #expect(again.input(.key(.character("c")), at: 2_000).isEmpty)
        #expect(again.note?.contains("Pick a player") == true)
    }

    @Test func thePickStaysOnThePlayerWhenARefreshReordersTheList() {
        var lobby = Self.listed()
        _ = lobby.input(.key(.character("2")), at: 2_000)
        _ = lobby.receive(.lobby([LobbyEntry(name: "al", variant: .classic), LobbyEntry(name: "ann", variant: .junior),
                                  LobbyEntry(name: "cy", variant: .ultra)], id: nil), at: 3_000)
        #expect(lobby.pickedRow == .player(LobbyEntry(name: "cy", variant: .ultra)))
    }

    @Test func anIncomingChallengeIsShownWithItsSecondsLeftAndAccepted() {
        var lobby = Self.listed()
        let open = ChallengeNotice(from: "bob", to: "ann", variant: .junior, state: .open, expiresAt: 61_000 + Self.offset, rating: 1712)
        #expect(lobby.receive(.challenge(open, id: nil), at: 2_000).isEmpty)
        #expect(lobby.incoming == [open])
        #expect(lobby.secondsLeft(open, at: 2_000) == 59)
        #expect(lobby.secondsLeft(open, at: 60_500) == 1)
        #expect(lobby.secondsLeft(open, at: 61_000) == 0)
        #expect(lobby.nextWake(at: 2_000) == 3_000)
        #expect(lobby.input(.key(.character("a")), at: 3_000) == [.send(.lobby(.accept(from: "bob")))])
        var accepted = open
        (accepted.state, accepted.match, accepted.token, accepted.expiresAt) = (.accepted, "challenge-1", "t0k", nil)
        #expect(lobby.receive(.challenge(accepted, id: nil), at: 3_100) == [.finish(.play(match: "challenge-1", token: "t0k", variant: .junior))])
        #expect(lobby.stage == .over)
        #expect(lobby.input(.key(.character("d")), at: 3_200).isEmpty)
    }

    @Test func aDeclineClearsThePromptOnBothSides() {
        var lobby = Self.listed()
        let open = ChallengeNotice(from: "bob", to: "ann", variant: .classic, state: .open, expiresAt: 61_000 + Self.offset)
        _ = lobby.receive(.challenge(open, id: nil), at: 2_000)
        #expect(lobby.input(.key(.character("n")), at: 2_000) == [.send(.lobby(.decline(from: "bob")))])
        var declined = open
        declined.state = .declined
        _ = lobby.receive(.challenge(declined, id: nil), at: 2_100)
        #expect(lobby.incoming.isEmpty)
        #expect(lobby.note == "You declined bob's challenge.")
        #expect(lobby.input(.key(.character("a")), at: 2_200).isEmpty)
        #expect(lobby.note == "Nobody has challenged you.")
    }

    @Test func myChallengeWaitsThenIsAcceptedOrExpires() {
        var lobby = Self.listed()
        let mine = ChallengeNotice(from: "ann", to: "bob", variant: .junior, state: .open, expiresAt: 61_000 + Self.offset)
        _ = lobby.receive(.challenge(mine, id: nil), at: 2_000)
        #expect(lobby.outgoing == mine)
        // A second challenge waits for the first's answer.
        #expect(lobby.input(.key(.enter), at: 2_500).isEmpty)
        var expired = mine
        expired.state = .expired
        _ = lobby.receive(.challenge(expired, id: nil), at: 61_000)
        #expect(lobby.outgoing == nil)
        #expect(lobby.note == "Your challenge to bob expired unanswered.")
        _ = lobby.receive(.challenge(mine, id: nil), at: 62_000)
        var accepted = mine
        (accepted.state, accepted.match, accepted.token) = (.accepted, "challenge-2", "mine")
        #expect(lobby.receive(.challenge(accepted, id: nil), at: 63_000) == [.finish(.play(match: "challenge-2", token: "mine", variant: .junior))])
    }

    @Test func aChallengeTheServerNeverEndsIsDroppedASecondAfterItsTime() {
        var lobby = Self.listed()
        let open = ChallengeNotice(from: "bob", to: "ann", variant: .classic, state: .open, expiresAt: 61_000 + Self.offset)
        _ = lobby.receive(.challenge(open, id: nil), at: 2_000)
        _ = lobby.tick(at: 61_999)
        #expect(lobby.incoming == [open])
        _ = lobby.tick(at: 62_000)
        #expect(lobby.incoming.isEmpty)
    }

    @Test func everyWayOut() {
        func after(_ key: Key, picking number: Character? = nil) -> [LobbyEffect] {
            var lobby = Self.listed()
            if let number { _ = lobby.input(.key(.character(number)), at: 2_000) }
            return lobby.input(.key(key), at: 2_000)
        }
        #expect(after(.character("d")) == [.finish(.quickDuel)])
        #expect(after(.enter, picking: "3") == [.finish(.join(match: "friday"))])
        #expect(after(.enter, picking: "4") == [.finish(.watch(match: "duel-4"))])
        #expect(after(.character("w"), picking: "4") == [.finish(.watch(match: "duel-4"))])
        #expect(after(.character("w"), picking: "1").isEmpty)
        #expect(after(.character("q")) == [.finish(.quit)])
        #expect(after(.escape) == [.finish(.quit)])
        var lost = Self.listed()
        #expect(lost.connectionLost("reset") == [.finish(.failed("setgame: lost the server (reset)"))])
        var refused = Self.listed()
        #expect(refused.receive(.error(WireError(.serverFull, "Full.", fatal: true), id: nil), at: 2_000) == [.finish(.failed("Full."))])
        var noted = Self.listed()
        #expect(noted.receive(.error(WireError(.playerNotHere, "Nobody called \"zed\" is in the lobby now."), id: nil), at: 2_000).isEmpty)
        #expect(noted.note == "Nobody called \"zed\" is in the lobby now.")
        var pinged = Self.listed()
        #expect(pinged.receive(.ping(time: 5, echo: true), at: 2_000) == [.send(.pong(time: 5))])
    }
}

/// Listings the lobby tests share.
enum LobbyFixtures {
    static let waiting = MatchListing(name: "friday", mode: .duel, phase: .waiting,
                                      players: [PlayerInfo(seat: .first, name: "dee", present: true, score: 0, rating: 1623, provisional: true)],
                                      spectators: 0, variant: .ultra)
    static let live = MatchListing(name: "duel-4", mode: .duel, phase: .playing,
                                   players: [PlayerInfo(seat: .first, name: "fayzer", present: true, score: 12, rating: 1712),
                                             PlayerInfo(seat: .second, name: "guest-4821", present: true, score: 9)],
                                   spectators: 2)
    static let solo = MatchListing(name: "solo-1", mode: .solo, phase: .playing, players: [], spectators: 0)
}

extension LobbyStateTests {
    /// The lobby is one room for the service: a `redirect` to its node is followed (a new
    /// connection there, the lobby entered again, with a door's ticket once), a few times at most.
    @Test func aRedirectMovesTheLobbyToItsNodeAndEntersThereAgain() {
        var lobby = Self.listed(account: "k1")
        #expect(lobby.receive(.redirect(Redirect(match: "~lobby", address: "10.0.0.2:7380", ticket: "t1"), id: nil), at: 2_000)
                == [.reconnect(address: "10.0.0.2:7380")])
        var enter = JoinRequest(name: "ann", variant: .junior)
        enter.account = "k1"
        enter.ticket = "t1"
        let effects = lobby.receive(.welcome(server: "setgame", versions: [1], time: 3_000, limits: ServerLimits()), at: 2_100)
        #expect(effects.first == .send(.lobby(.enter(enter))))
        for _ in 1..<LobbyState.maxRedirects { _ = lobby.receive(.redirect(Redirect(match: "~lobby", address: "a:1"), id: nil), at: 2_200) }
        guard case .finish(.failed)? = lobby.receive(.redirect(Redirect(match: "~lobby", address: "a:1"), id: nil), at: 2_300).first else {
            Issue.record("a fourth redirect in a row ends the lobby")
            return
        }
    }
}
