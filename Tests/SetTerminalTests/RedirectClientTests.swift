import SetClient
import SetNet
import SetRules
import SetTestSupport
import SetWire
import Testing
@testable import SetScreen
@testable import SetTerminal

/// The terminal client across nodes, on real sockets against two scripted servers: a redirect is
/// followed unseen (the same join sent to the node named), a drop afterwards resumes there with
/// the token, a loop ends with its reason, and `node_away` counts down and asks again.
@Suite(.serialized) struct RedirectClientTests {
    /// A client greeted by `first`, its join read there.
    func joining(_ first: FakeServer, role: Role = .player, match: String? = "m") throws -> (ScriptedClient, FakePeer, String) {
        let client = try ScriptedClient(port: first.port, match: match, role: role)
        let peer = try first.accept()
        client.pumpConnected()
        peer.send(FakeLines.welcome())
        client.pump(peer)
        let join = try #require(peer.await("join"))
        return (client, peer, join)
    }

    /// Sends the redirect to `second`, and returns the join the client sent there after its welcome.
    func redirect(_ client: ScriptedClient, from peer: FakePeer, to second: FakeServer, match: String = "m") throws -> (FakePeer, String) {
        let before = client.socket
        peer.send(FakeLines.redirect(match: match, to: second.port))
        #expect(client.pump { client.socket !== before }, "the client moved to another connection")
        let moved = try second.accept()
        #expect(peer.closedByClient(), "the client closed its connection to the node that redirected it")
        client.pumpConnected()
        moved.send(FakeLines.welcome())
        client.pump(moved)
        return (moved, try #require(moved.await("join")))
    }

    @Test func aJoinIsFollowedToTheNodeHoldingTheMatchAndSeatedThere() throws {
        let a = try FakeServer(), b = try FakeServer()
        let (client, peer, join) = try joining(a)
        let (moved, again) = try redirect(client, from: peer, to: b)
        #expect(again == join, "the same request, sent again")
        moved.send(FakeLines.joined())
        moved.send(FakeLines.snapshot(seq: 5))
        client.pump(moved)
        #expect(client.app.state.connection == .live && client.app.state.view?.seq == 5)
        #expect(client.quit == nil && client.logs.contains("redirected to 127.0.0.1:\(b.port)"))
    }

    /// A redirect read in one batch with more lines (the door's join goes with its first line, so
    /// a node's answers can come together): what follows it belongs to the connection the client
    /// has just closed and is nobody's news. Reading it trapped once ("an unowned reference …
    /// already destroyed"): the door crashed following its duel to another node.
    @Test func linesAfterARedirectInTheSameReadAreLeftAndTheJoinGoesOn() throws {
        let a = try FakeServer(), b = try FakeServer()
        let (client, peer, join) = try joining(a)
        // Not the socket itself: a reference held here would keep it alive, as nothing else does.
        let before = client.socket.map(ObjectIdentifier.init)
        peer.send(FakeLines.redirect(to: b.port) + "\n" + FakeLines.welcome() + "\n" + FakeLines.welcome())
        #expect(client.pump { client.socket.map(ObjectIdentifier.init) != before }, "the client moved to another connection")
        let moved = try b.accept()
        client.pumpConnected()
        moved.send(FakeLines.welcome())
        client.pump(moved)
        #expect(moved.await("join") == join, "the same join, sent to the node named")
        #expect(client.quit == nil)
    }

    @Test func aDropAfterARedirectResumesOnTheNewNodeWithTheToken() throws {
        let a = try FakeServer(), b = try FakeServer()
        let (client, peer, _) = try joining(a)
        let (moved, _) = try redirect(client, from: peer, to: b)
        moved.send(FakeLines.joined())
        moved.send(FakeLines.snapshot(seq: 5))
        client.pump(moved)
        moved.close()
        #expect(client.pump { if case .lost = client.app.state.connection { true } else { false } }, "the drop was seen")
        guard case .lost(_, let retryAt, _) = client.app.state.connection else { Issue.record("not lost"); return }
        client.advance(to: retryAt)
        let back = try b.accept()
        client.pumpConnected()
        back.send(FakeLines.welcome())
        client.pump(back)
        let resume = try #require(back.await("join"))
        #expect(resume.contains(#""token":"00112233445566778899aabbccddeeff""#) && resume.contains(#""lastSeq":5"#))
        #expect(throws: FakeServerError.self, "nothing went back to the first node") { try a.accept(waitMs: 0) }
    }

    @Test func aWatchIsFollowedToo() throws {
        let a = try FakeServer(), b = try FakeServer()
        let (client, peer, join) = try joining(a, role: .spectator)
        #expect(join.contains(#""role":"spectator""#))
        let (moved, again) = try redirect(client, from: peer, to: b)
        #expect(again == join)
        moved.send(#"{"match":"m","mode":"duel","resumed":false,"role":"spectator","seat":null,"type":"joined"}"#)
        moved.send(FakeLines.snapshot(seq: 9))
        client.pump(moved)
        #expect(client.app.state.view?.seq == 9 && client.quit == nil)
    }

    @Test func aRedirectLoopEndsWithAClearMessage() throws {
        let a = try FakeServer(), b = try FakeServer()
        var (client, peer, _) = try joining(a)
        for hop in 1...ClientSession.maxRedirects {
            (peer, _) = try redirect(client, from: peer, to: hop % 2 == 1 ? b : a)
        }
        peer.send(FakeLines.redirect(to: b.port))
        #expect(client.pump { client.quit != nil })
        #expect(client.quit?.status == 1)
        #expect(client.quit?.message == "setgame: the servers sent this client on 4 times without seating it (last to 127.0.0.1:\(b.port)): a redirect loop")
        #expect(peer.closedByClient())
    }

    @Test func nodeAwayIsCountedDownOnScreenAndAskedAgain() throws {
        let a = try FakeServer()
        let (client, peer, join) = try joining(a)
        let start = client.now
        peer.send(FakeLines.nodeAway(retryAfterMs: 3_000))
        client.pump(peer)
        #expect(StatusLines.status(client.app.state, at: client.now).main.map(\.text).joined()
                .contains("The server holding this match (b) is away: asking again in 3 s"))
        client.advance(to: start + 1_000)
        #expect(StatusLines.status(client.app.state, at: client.now).main.map(\.text).joined().contains("asking again in 2 s"))
        #expect(client.app.nextWake(at: client.now) == start + 2_000, "the countdown wakes the screen each second")
        client.advance(to: start + 3_000)
        client.driver.socket?.flush()
        #expect(peer.await("join") == join, "the same join, on the same connection")
        peer.send(FakeLines.joined())
        peer.send(FakeLines.snapshot(seq: 5))
        client.pump(peer)
        #expect(client.app.state.connection == .live && client.app.state.session.nodeAway == nil && client.quit == nil)
    }

    /// Issue 42, item 8: a node killed with -9 is still where other nodes redirect until its lease
    /// lapses. The client counts down on screen, goes back to the server it was given (which
    /// redirects afresh, or says `node_away` once the lease lapsed), and sends the same join there.
    @Test func aRedirectToANodeThatRefusesCountsDownAndGoesBackToTheFirstServer() throws {
        let a = try FakeServer()
        let (client, peer, join) = try joining(a)
        peer.send(FakeLines.redirect(match: "m", to: 1))
        #expect(client.pump { if case .lost = client.app.state.connection { true } else { client.quit != nil } }, "the refusal was seen")
        #expect(client.quit == nil, "not \"Connection refused\" and exit 1")
        guard case .lost(_, let retryAt, _) = client.app.state.connection else { Issue.record("no countdown"); return }
        let row = StatusLines.status(client.app.state, at: client.now).main.map(\.text).joined()
        #expect(row.contains("Connection lost: retrying in 1 s"), "the countdown is on screen: \(row)")
        #expect(client.app.redirectedPlace == nil)
        client.advance(to: retryAt)
        let back = try a.accept()
        client.pumpConnected()
        back.send(FakeLines.welcome())
        client.pump(back)
        #expect(back.await("join") == join, "the same join, to the server first given")
    }
}
