import SetClient
import SetRules
import SetWire
import Testing

/// The session across several servers (Protocol.md, "Several servers (nodes)"): a `redirect` moves
/// it to the node holding its match, with the same request; `node_away` waits and asks again.
@Suite struct ClientSessionRedirectTests {
    static let welcome = ClientSessionTests.welcome
    static let ticket = String(repeating: "T", count: 43)

    static func redirect(to address: String = "127.0.0.2:7380", match: String = "m", ticket: String? = nil) -> ServerMessage {
        .redirect(Redirect(match: match, address: address, ticket: ticket), id: nil)
    }

    static func nodeAway(retryAfterMs: Int64 = 3_000) -> ServerMessage {
        .error(WireError(.nodeAway, "The server holding m (b) is away; try again in 3 s.",
                         details: ["match": .string("m"), "node": .string("b"), "retryAfterMs": .int(retryAfterMs)]), id: nil)
    }

    /// A session welcomed, its join sent and not answered yet.
    static func joining(_ options: ClientOptions = .init(name: "ann", match: "m")) -> ClientSession {
        var session = ClientSession(options)
        session.connected(at: 0)
        _ = session.receive(welcome, at: 0)
        return session
    }

    @Test func aRedirectMovesTheSessionAndTheSameJoinGoesThere() {
        var session = Self.joining()
        #expect(session.receive(Self.redirect(), at: 5) == [
            .log("m lives on 127.0.0.2:7380; following the server there"), .redirected(to: .tcp(host: "127.0.0.2", port: 7380))])
        #expect(session.stage == .offline && session.redirectedPlace == .tcp(host: "127.0.0.2", port: 7380))
        session.connected(at: 6)
        #expect(session.receive(Self.welcome, at: 6).last == .send(.join(JoinRequest(name: "ann", match: "m"))))
    }

    @Test func aQuickPairingsRedirectNamesTheMatchTheJoinThenAsksFor() {
        var session = Self.joining(.init(name: "ann"))
        _ = session.receive(Self.redirect(match: "pair-7"), at: 0)
        session.connected(at: 1)
        #expect(session.joinMessage == .join(JoinRequest(name: "ann", match: "pair-7")))
        _ = session.receive(.joined(role: .player, match: "pair-7", mode: .duel, seat: .second, token: "tok", resumed: false, id: nil), at: 2)
        #expect(session.redirectedMatch == nil && session.redirectsFollowed == 0, "a join answered ends the move")
        #expect(session.redirectedPlace == .tcp(host: "127.0.0.2", port: 7380), "the seat lives there: resumes go there")
    }

    @Test func aDoorConnectionsTicketGoesWithTheNextJoinOnlyOverTCP() {
        var options = ClientOptions(name: "key-ab12", match: "m")
        options.route = UnixRoute(path: "/run/setgame/door.sock", greeting: Array("{\"type\":\"door\"}\n".utf8))
        var session = Self.joining(options)
        _ = session.receive(Self.redirect(ticket: Self.ticket), at: 0)
        #expect(session.redirectedPlace == .tcp(host: "127.0.0.2", port: 7380), "not the door's socket: another host's node")
        session.connected(at: 1)
        var expected = JoinRequest(name: "key-ab12", match: "m")
        expected.ticket = Self.ticket
        #expect(session.receive(Self.welcome, at: 1).last == .send(.join(expected)))
        _ = session.receive(.joined(role: .player, match: "m", mode: .duel, seat: .first, token: "tok", resumed: false, id: nil), at: 2)
        session.disconnected()
        session.connected(at: 3)
        #expect(session.joinMessage == .join(JoinRequest(name: "key-ab12", match: "m", token: "tok")), "a ticket is used once; the token resumes")
    }

    @Test func aFourthRedirectForOneRequestIsALoopNotAMove() {
        var session = Self.joining()
        for hop in 1...ClientSession.maxRedirects {
            let address = "127.0.0.\(hop % 2 + 1):7380"
            #expect(session.receive(Self.redirect(to: address), at: 0).last == .redirected(to: ServerPlace(address: address)!))
            session.connected(at: 0)
            _ = session.receive(Self.welcome, at: 0)
        }
        #expect(session.receive(Self.redirect(to: "127.0.0.2:7380"), at: 0) == [.gaveUp(.redirectLoop(count: 4, address: "127.0.0.2:7380"))])
        #expect(SessionEnd.redirectLoop(count: 4, address: "127.0.0.2:7380").reason
                == "the servers sent this client on 4 times without seating it (last to 127.0.0.2:7380): a redirect loop")
    }

    @Test func aRedirectToSomethingThatIsNoAddressIsGivenUp() {
        var session = Self.joining()
        #expect(session.receive(Self.redirect(to: "nowhere"), at: 0) == [.gaveUp(.badRedirect(address: "nowhere"))])
        #expect(session.redirectedPlace == nil)
    }

    @Test func nodeAwayWaitsWhatTheServerSaysThenAsksAgain() {
        var session = Self.joining()
        let effects = session.receive(Self.nodeAway(retryAfterMs: 3_000), at: 100)
        guard case .nodeAway(let wait) = effects.first, effects.count == 1 else { Issue.record("no wait: \(effects)"); return }
        #expect(wait.retryAt == 3_100 && wait.node == "b" && wait.secondsLeft(at: 100) == 3 && wait.secondsLeft(at: 1_200) == 2)
        #expect(session.nextWake == 3_100)
        #expect(session.tick(at: 3_099).allSatisfy { if case .send(.join) = $0 { false } else { true } })
        #expect(session.tick(at: 3_100).first == .send(.join(JoinRequest(name: "ann", match: "m"))))
        #expect(session.nodeAway == nil)
    }

    @Test func nodeAwayWaitsAtLeastASecondAndGivesUpAfterAFewTries() {
        var session = Self.joining()
        var now: Int64 = 0
        for _ in 0..<ClientSession.maxNodeAwayRetries {
            _ = session.receive(Self.nodeAway(retryAfterMs: 0), at: now)
            #expect(session.nodeAway?.retryAt == now + ClientSession.leastNodeAwayWait)
            now += ClientSession.leastNodeAwayWait
            _ = session.tick(at: now)
        }
        guard case .error(let error, _) = Self.nodeAway(retryAfterMs: 0) else { return }
        #expect(session.receive(Self.nodeAway(retryAfterMs: 0), at: now) == [.refused(error)])
    }

    /// A person at the screen waits for a node the orchestrator restarts, however long: once its
    /// lease has lapsed every wait is a second, and a few tries gave up within five.
    @Test func aPatientSessionKeepsAskingAnAwayNodeUntilItIsBack() {
        var session = Self.joining()
        session.awayNodePatience = .untilQuit
        var now: Int64 = 0
        for _ in 0..<(ClientSession.maxNodeAwayRetries * 20) {
            let effects = session.receive(Self.nodeAway(retryAfterMs: 1_000), at: now)
            guard case .nodeAway = effects.first else { Issue.record("gave up at \(now) ms: \(effects)"); return }
            now += 1_000
            #expect(session.tick(at: now).first == .send(.join(JoinRequest(name: "ann", match: "m"))))
        }
    }
}
