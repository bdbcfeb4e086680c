import SetClient
import SetRules
import SetWire
import Testing

/// The lobby as a stage of the one session (issue 42, "The shape"): entered at the welcome, kept
/// fresh on the session's clock, its pushes and challenges passed on as effects, moved by a
/// `redirect` and held by `node_away` as a join is, and an accepted challenge going on, on the same
/// session, to its reserved seat.
@Suite struct ClientSessionLobbyTests {
    static let welcome = ClientSessionTests.welcome
    static let options = ClientOptions(name: "ann", variant: .junior, pings: .keepAlive)

    static func enter(ticket: String? = nil) -> SessionEffect {
        var join = JoinRequest(name: "ann", variant: .junior)
        join.account = "k1"
        join.ticket = ticket
        return .send(.lobby(.enter(join)))
    }

    /// A session listed in the lobby at time 0.
    static func inLobby() -> ClientSession {
        var options = Self.options
        options.account = "k1"
        var session = ClientSession(options)
        _ = session.enterLobby(at: 0)
        session.connected(at: 0)
        _ = session.receive(welcome, at: 0)
        _ = session.receive(.lobby([LobbyEntry(name: "ann", variant: .junior)], id: nil), at: 0)
        return session
    }

    static func accepted(match: String = "challenge-b-1", token: String = "tok") -> ChallengeNotice {
        ChallengeNotice(from: "bob", to: "ann", variant: .chain, state: .accepted, match: match, token: token)
    }

    @Test func theWelcomeEntersTheLobbyAndItsListsRefreshOnTheSessionsClock() {
        var options = Self.options
        options.account = "k1"
        var session = ClientSession(options)
        #expect(session.enterLobby(at: 0).isEmpty, "offline: nothing to send yet")
        #expect(session.connected(at: 0).isEmpty, "the lobby waits for the welcome")
        #expect(session.receive(Self.welcome, at: 10) == [.welcomed(serverTime: 1_000, limits: ServerLimits()), Self.enter(), .send(.list())])
        #expect(session.stage == .lobby && session.inLobby)
        #expect(session.nextWake == 10 + ClientSession.lobbyRefreshMs)
        #expect(session.tick(at: 5_009).isEmpty)
        #expect(session.tick(at: 5_010) == [Self.enter(), .send(.list()), .send(.ping(time: 5_010))])
        #expect(session.refreshLobby(at: 6_000) == [Self.enter(), .send(.list())], "a person's r asks at once")
    }

    @Test func aPushedLobbyLineAndAnOpenChallengeArePassedOn() {
        var session = Self.inLobby()
        let entries = [LobbyEntry(name: "ann", variant: .junior), LobbyEntry(name: "bob", variant: .chain, rating: 1712)]
        #expect(session.receive(.lobby(entries, id: nil), at: 100) == [.lobbyListed(entries)])
        #expect(session.receive(.matches([], next: nil, id: nil), at: 100) == [.listed([], next: nil)])
        let open = ChallengeNotice(from: "bob", to: "ann", variant: .chain, state: .open, expiresAt: 61_000)
        #expect(session.receive(.challenge(open, id: nil), at: 200) == [.challenge(open)])
        #expect(session.stage == .lobby && session.token == nil)
    }

    @Test func anAcceptedChallengeGoesOnOnTheSameSessionToItsReservedSeat() {
        var session = Self.inLobby()
        let notice = Self.accepted()
        var join = JoinRequest(name: "ann", match: "challenge-b-1", token: "tok")
        join.account = "k1"
        #expect(session.receive(.challenge(notice, id: nil), at: 300) == [.challenge(notice), .saveToken("tok"), .send(.join(join))])
        #expect(session.stage == .joining && !session.inLobby && session.options.reservedSeat)
        #expect(session.options.match == "challenge-b-1" && session.options.variant == nil)
        #expect(session.tick(at: 10_000).allSatisfy { $0 != Self.enter() }, "no lobby refresh once the seat is asked for")
        _ = session.receive(.joined(role: .player, match: "challenge-b-1", mode: .duel, seat: .second, token: "tok", resumed: true, id: nil),
                            at: 400)
        #expect(session.stage == .joined && session.matchName == "challenge-b-1")
    }

    @Test func anAcceptedDuelElsewhereIsFollowedAndARefusedTokenIsFinal() {
        var session = Self.inLobby()
        _ = session.receive(.challenge(Self.accepted(), id: nil), at: 300)
        let effects = session.receive(.redirect(Redirect(match: "challenge-b-1", address: "127.0.0.3:7380"), id: nil), at: 310)
        #expect(effects.last == .redirected(to: .tcp(host: "127.0.0.3", port: 7380)))
        session.connected(at: 320)
        var join = JoinRequest(name: "ann", match: "challenge-b-1", token: "tok")
        join.account = "k1"
        #expect(session.receive(Self.welcome, at: 330).last == .send(.join(join)), "the same resume there, not the lobby")
        let refused = WireError(.badToken, "That seat is gone.")
        #expect(session.receive(.error(refused, id: nil), at: 340) == [.saveToken(nil), .refused(refused)],
                "a reserved seat refused is not swapped for a public one")
    }

    @Test func aRedirectOfTheLobbyMovesTheSessionAndEntersThereWithTheTicketOnce() {
        var session = Self.inLobby()
        let effects = session.receive(.redirect(Redirect(match: "~lobby", address: "10.0.0.2:7380", ticket: "t1"), id: nil), at: 500)
        #expect(effects.last == .redirected(to: .tcp(host: "10.0.0.2", port: 7380)))
        #expect(session.stage == .offline && session.redirectedPlace == .tcp(host: "10.0.0.2", port: 7380))
        #expect(session.connected(at: 510).isEmpty)
        #expect(session.receive(Self.welcome, at: 520).suffix(2) == [Self.enter(ticket: "t1"), .send(.list())])
        _ = session.receive(.lobby([LobbyEntry(name: "ann", variant: .junior)], id: nil), at: 530)
        #expect(session.ticket == nil && session.redirectsFollowed == 0, "the lobby answered: the move is over")
        #expect(session.refreshLobby(at: 600).first == Self.enter())
    }

    @Test func lobbyRedirectsInARowAreALoop() {
        var session = Self.inLobby()
        for step in 0..<ClientSession.maxRedirects {
            _ = session.receive(.redirect(Redirect(match: "~lobby", address: "10.0.0.2:7380"), id: nil), at: Int64(step))
            session.connected(at: Int64(step))
            _ = session.receive(Self.welcome, at: Int64(step))
        }
        let last = session.receive(.redirect(Redirect(match: "~lobby", address: "10.0.0.2:7380"), id: nil), at: 9)
        #expect(last == [.gaveUp(.redirectLoop(count: ClientSession.maxRedirects + 1, address: "10.0.0.2:7380"))])
    }

    @Test func nodeAwayInTheLobbyWaitsThenEntersAgain() throws {
        var session = Self.inLobby()
        let away = WireError(.nodeAway, "The server holding ~lobby (b) is away; try again in 3 s.",
                             details: ["match": .string("~lobby"), "node": .string("b"), "retryAfterMs": .int(3_000)])
        let effects = session.receive(.error(away, id: nil), at: 1_000)
        let wait = try #require(session.nodeAway)
        #expect(effects == [.nodeAway(wait)] && wait.retryAt == 4_000)
        #expect(session.nextWake == 4_000)
        #expect(session.tick(at: 3_999).allSatisfy { $0 != Self.enter() }, "no refresh while the lobby's node is away")
        #expect(session.tick(at: 4_000) == [Self.enter(), .send(.list()), .log("asking again for ~lobby")])
        #expect(session.nodeAway == nil && session.stage == .lobby)
    }
}
