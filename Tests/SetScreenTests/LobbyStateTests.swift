import SetClient
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
        _ = lobby.take(.welcomed(serverTime: 1_000 + offset, limits: ServerLimits()), at: 1_000)
        _ = lobby.take(.lobbyListed([LobbyEntry(name: "ann", variant: .junior), LobbyEntry(name: "bob", variant: .classic, rating: 1712),
                                  LobbyEntry(name: "cy", variant: .ultra)]), at: 1_000)
        _ = lobby.take(.listed([LobbyFixtures.waiting, LobbyFixtures.live], next: nil), at: 1_000)
        return lobby
    }

    /// The session (`ClientSession`, its lobby stage) speaks the protocol; the screen is told
    /// it was greeted, and its `r` asks the session for the lists at once.
    @Test func theWelcomeListsTheScreenAndRAsksTheSessionForTheListsAgain() {
        var lobby = LobbyState(me: "ann", account: "k1", variant: .junior)
        #expect(lobby.input(.key(.character("r")), at: 0).isEmpty, "not greeted yet")
        #expect(lobby.take(.welcomed(serverTime: 500_000, limits: ServerLimits()), at: 1_000).isEmpty)
        #expect(lobby.stage == .listed && lobby.serverOffset == 499_000)
        #expect(lobby.nextWake(at: 1_000) == nil, "the session keeps the lists fresh; nothing counts down")
        #expect(lobby.input(.key(.character("r")), at: 7_000) == [.refresh])
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
        _ = lobby.take(.lobbyListed([LobbyEntry(name: "al", variant: .classic), LobbyEntry(name: "ann", variant: .junior),
                                  LobbyEntry(name: "cy", variant: .ultra)]), at: 3_000)
        #expect(lobby.pickedRow == .player(LobbyEntry(name: "cy", variant: .ultra)))
    }

    @Test func anIncomingChallengeIsShownWithItsSecondsLeftAndAccepted() {
        var lobby = Self.listed()
        let open = ChallengeNotice(from: "bob", to: "ann", variant: .junior, state: .open, expiresAt: 61_000 + Self.offset, rating: 1712)
        #expect(lobby.take(.challenge(open), at: 2_000).isEmpty)
        #expect(lobby.incoming == [open])
        #expect(lobby.secondsLeft(open, at: 2_000) == 59)
        #expect(lobby.secondsLeft(open, at: 60_500) == 1)
        #expect(lobby.secondsLeft(open, at: 61_000) == 0)
        #expect(lobby.nextWake(at: 2_000) == 3_000)
        #expect(lobby.input(.key(.character("a")), at: 3_000) == [.send(.lobby(.accept(from: "bob")))])
        var accepted = open
        (accepted.state, accepted.match, accepted.token, accepted.expiresAt) = (.accepted, "challenge-1", "t0k", nil)
        #expect(lobby.take(.challenge(accepted), at: 3_100) == [.finish(.play(match: "challenge-1", token: "t0k", variant: .junior))])
        #expect(lobby.stage == .over)
        #expect(lobby.input(.key(.character("d")), at: 3_200).isEmpty)
    }

    @Test func aDeclineClearsThePromptOnBothSides() {
        var lobby = Self.listed()
        let open = ChallengeNotice(from: "bob", to: "ann", variant: .classic, state: .open, expiresAt: 61_000 + Self.offset)
        _ = lobby.take(.challenge(open), at: 2_000)
        #expect(lobby.input(.key(.character("n")), at: 2_000) == [.send(.lobby(.decline(from: "bob")))])
        var declined = open
        declined.state = .declined
        _ = lobby.take(.challenge(declined), at: 2_100)
        #expect(lobby.incoming.isEmpty)
        #expect(lobby.note == "You declined bob's challenge.")
        #expect(lobby.input(.key(.character("a")), at: 2_200).isEmpty)
        #expect(lobby.note == "Nobody has challenged you.")
    }

    @Test func myChallengeWaitsThenIsAcceptedOrExpires() {
        var lobby = Self.listed()
        let mine = ChallengeNotice(from: "ann", to: "bob", variant: .junior, state: .open, expiresAt: 61_000 + Self.offset)
        _ = lobby.take(.challenge(mine), at: 2_000)
        #expect(lobby.outgoing == mine)
        // A second challenge waits for the first's answer.
        #expect(lobby.input(.key(.enter), at: 2_500).isEmpty)
        var expired = mine
        expired.state = .expired
        _ = lobby.take(.challenge(expired), at: 61_000)
        #expect(lobby.outgoing == nil)
        #expect(lobby.note == "Your challenge to bob expired unanswered.")
        _ = lobby.take(.challenge(mine), at: 62_000)
        var accepted = mine
        (accepted.state, accepted.match, accepted.token) = (.accepted, "challenge-2", "mine")
        #expect(lobby.take(.challenge(accepted), at: 63_000) == [.finish(.play(match: "challenge-2", token: "mine", variant: .junior))])
    }

    @Test func aChallengeTheServerNeverEndsIsDroppedASecondAfterItsTime() {
        var lobby = Self.listed()
        let open = ChallengeNotice(from: "bob", to: "ann", variant: .classic, state: .open, expiresAt: 61_000 + Self.offset)
        _ = lobby.take(.challenge(open), at: 2_000)
        lobby.tick(at: 61_999)
        #expect(lobby.incoming == [open])
        lobby.tick(at: 62_000)
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
        #expect(refused.take(.refused(WireError(.serverFull, "Full.", fatal: true)), at: 2_000) == [.finish(.failed("Full."))])
        var noted = Self.listed()
        #expect(noted.take(.refused(WireError(.playerNotHere, "Nobody called \"zed\" is in the lobby now.")), at: 2_000).isEmpty)
        #expect(noted.note == "Nobody called \"zed\" is in the lobby now.")
        var gone = Self.listed()
        #expect(gone.take(.gaveUp(.silent(ms: 30_000)), at: 2_000) == [.finish(.failed("setgame: the server did not answer for 30 s"))])
        var never = LobbyState(me: "ann")
        #expect(never.connectionLost("refused") == [.finish(.failed("setgame: cannot reach the server (refused)"))])
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
    /// A node's name and a redirect's address are the server's words: a terminal escape in them
    /// reaches the lobby's note as safe text.
    @Test func theServersWordsInAWaitAreShownAsSafeText() throws {
        var lobby = Self.listed()
        var session = ClientSession(ClientOptions(name: "ann", match: "m"))
        session.connected(at: 0)
        _ = session.receive(.welcome(server: "t", versions: [1], time: 0, limits: ServerLimits()), at: 0)
        let away = WireError(.nodeAway, "Away.", details: ["node": .string("b\u{1b}[2J")])
        _ = session.receive(.error(away, id: nil), at: 1_000)
        _ = lobby.take(.nodeAway(try #require(session.nodeAway)), at: 1_000)
        #expect(lobby.note?.contains("\u{1b}") == false && lobby.note?.contains("is away") == true)
        _ = lobby.take(.unreachable(UnreachableWait(address: "10.0.0.9:1\u{1b}]0;x\u{7}", reason: "refused", retryAt: 3_000)), at: 1_000)
        #expect(lobby.note?.contains("\u{1b}") == false && lobby.note?.contains("did not answer") == true)
    }
}
