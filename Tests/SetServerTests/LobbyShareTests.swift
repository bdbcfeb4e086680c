import SetRules
@testable import SetServer
import SetWire
import Testing

/// The lobby's promises that hold on one server as on many (issue 42 items 1, 3, 4; issue 45
/// item 9), over real sockets: the challenge allowance is the address's, not the name's; each
/// address gets a share of the lobby; an accept is told on every connection of both sides; a
/// challenger who leaves is told to the challenged as `expired`; an accepted duel waits for both
/// its players even when the first to sit leaves; and changes are pushed as they happen.
@Suite struct LobbyShareTests {
    typealias Lobby = ChallengeTests

    /// Lists `client` under `name`; the lobby's answer to this very request (pushed lines have no id).
    static func enter(_ client: TestClient, _ name: String, account: String? = nil, id: String) throws -> [LobbyEntry] {
        var join = JoinRequest(name: name)
        join.account = account
        client.send(.lobby(.enter(join)), id: .string(id))
        return try client.waitFor("the lobby's answer to \(id)") { message -> [LobbyEntry]? in
            if case .error(let error, .string(id)?) = message { Issue.record("refused: \(error.message)") }
            if case .lobby(let entries, .string(id)?) = message { return entries }
            return nil
        }
    }

    /// The `accepted` challenge line `client` is told.
    static func accepted(_ client: TestClient) throws -> ChallengeNotice {
        try client.waitFor("accepted") { message -> ChallengeNotice? in
            if case .error(let error, _) = message { Issue.record("refused: \(error.message)") }
            if case .challenge(let notice, _) = message, notice.state == .accepted { return notice }
            return nil
        }
    }

    /// `join` sent on a fresh connection; the snapshot it was seated with.
    static func seated(_ server: TestServer, _ join: JoinRequest) throws -> (TestClient, MatchView) {
        let client = try TestClient.greeted(server)
        client.send(.join(join))
        let view = try client.waitFor("snapshot") { message -> MatchView? in
            if case .error(let error, _) = message { Issue.record("refused: \(error.code)") }
            if case .snapshot(let view) = message { return view }
            return nil
        }
        return (client, view)
    }

    /// Issue 42 item 3: one connection renaming itself before each challenge, 77 times in 10 s,
    /// reaches its victim at most 3 times (the allowance is counted by address and connection).
    @Test func renamingDoesNotRefillTheChallengeAllowance() throws {
        let server = try TestServer()
        defer { server.stop() }
        let (victim, _) = try Lobby.inLobby(server, "vic")
        let attacker = try TestClient.greeted(server)
        var refused = 0
        for round in 0..<77 {
            _ = try Self.enter(attacker, "x\(round)", id: "e\(round)")
            attacker.send(.lobby(.challenge(name: "vic", variant: nil)), id: .string("c\(round)"))
            let sent = try attacker.waitFor("the challenge's answer") { message -> Bool? in
                if case .challenge(_, .string("c\(round)")?) = message { return true }
                if case .error(_, .string("c\(round)")?) = message { return false }
                return nil
            }
            if !sent { refused += 1 }
            server.advance(by: 130)  // 77 rounds in 10 s
        }
        victim.send(.ping(time: nil))
        _ = try victim.waitFor("pong") { if case .pong = $0 { true } else { nil } }
        let opened = victim.received.filter { if case .challenge(let notice, _) = $0 { notice.state == .open } else { false } }
        #expect(opened.count <= Challenges.allowance)
        #expect(refused >= 77 - Challenges.allowance)
    }

    /// Issue 42 item 4: one address holds at most its share of the lobby (20 of 200 by
    /// default); past it `address_limit`, while another address still comes in.
    @Test func oneAddressCannotFillTheLobby() throws {
        let server = try TestServer()
        defer { server.stop() }
        let share = LobbySize().perAddress
        let crowd = try (0..<share).map { index in
            let client = try TestClient.greeted(server, from: "127.0.0.31")
            _ = try Self.enter(client, "g\(index)", id: "e")
            return client
        }
        let one = try TestClient.greeted(server, from: "127.0.0.31")
        one.send(.lobby(.enter(JoinRequest(name: "more"))))
        #expect(try one.awaitError(.addressLimit).code == .addressLimit)
        let other = try TestClient.greeted(server, from: "127.0.0.32")
        #expect(try Self.enter(other, "other", id: "e").contains { $0.name == "other" })
        withExtendedLifetime(crowd) {}
    }

    /// Issue 42 (a client author's question): an accept made on one of a player's two lobby
    /// connections is told on the other too, with the same token; the challenger's too.
    @Test func anAcceptIsToldOnEveryConnectionOfBothSides() throws {
        let server = try TestServer()
        defer { server.stop() }
        let key = String(repeating: "b3", count: 32)
        let bobHere = try TestClient.greeted(server), bobThere = try TestClient.greeted(server)
        _ = try Self.enter(bobHere, "bob", account: key, id: "e")
        _ = try Self.enter(bobThere, "bob", account: key, id: "e")
        let (ann, _) = try Lobby.inLobby(server, "ann")
        ann.send(.lobby(.challenge(name: "bob", variant: nil)))
        _ = try Lobby.notice(bobHere)
        _ = try Lobby.notice(bobThere)
        bobHere.send(.lobby(.accept(from: "ann")), id: "a")
        let answered = try Lobby.notice(bobHere)
        let told = try bobThere.waitFor("the accept") { message -> ChallengeNotice? in
            if case .challenge(let notice, nil) = message, notice.state == .accepted { return notice }
            return nil
        }
        #expect(answered.state == .accepted && told.match == answered.match && told.token == answered.token)
        let anns = try Self.accepted(ann)
        #expect(anns.match == answered.match && anns.token != answered.token)
    }

    /// Issue 42 (a client author's question): a challenger who closes its connection ends its
    /// challenge, and the challenged is told so by an `expired` challenge line.
    @Test func aChallengerWhoLeavesIsToldAsExpired() throws {
        let server = try TestServer()
        defer { server.stop() }
        let (ann, _) = try Lobby.inLobby(server, "ann")
        let (bob, _) = try Lobby.inLobby(server, "bob")
        ann.send(.lobby(.challenge(name: "bob", variant: nil)))
        #expect(try Lobby.notice(bob).state == .open)
        ann.hangUp()
        let gone = try bob.waitFor("expired") { message -> ChallengeNotice? in
            if case .challenge(let notice, _) = message, notice.state == .expired { return notice }
            return nil
        }
        #expect(gone.from == "ann" && gone.to == "bob")
        bob.send(.lobby(.accept(from: "ann")))
        _ = try bob.awaitError(.noSuchChallenge)
    }

    /// Issue 42 item 1: an accepted duel is kept for its two players for the seat wait, even
    /// when the first to sit leaves before the other arrives.
    @Test func theFirstSitterLeavingKeepsTheDuelForBoth() throws {
        let server = try TestServer()
        defer { server.stop() }
        let (ann, _) = try Lobby.inLobby(server, "ann")
        let (bob, _) = try Lobby.inLobby(server, "bob")
        let bobs = try Lobby.accepted((ann, "ann"), (bob, "bob"))
        let anns = try Self.accepted(ann)
        let match = try #require(bobs.match)
        let (annSeat, _) = try Self.seated(server, JoinRequest(name: "ann", match: match, token: anns.token))
        let watcher = try TestClient.greeted(server)
        watcher.send(.join(JoinRequest(role: .spectator, name: "w", match: match)))
        _ = try watcher.waitFor("snapshot") { if case .snapshot = $0 { true } else { nil } }
        annSeat.hangUp()
        // The server has seen her go once her spectator hears of it (her seat away, or the match gone).
        _ = try watcher.waitFor("ann gone") { message -> Bool? in
            if case .event(let event) = message, case .presence(_, false, _) = event.body { return true }
            if case .error = message { return true }
            return nil
        }
        // The match must still be there for bob's token, and for hers.
        let (bobSeat, view) = try Self.seated(server, JoinRequest(name: "bob", match: match, token: bobs.token))
        #expect(view.match == match)
        let (annBack, resumed) = try Self.seated(server, JoinRequest(name: "ann", match: match, token: anns.token))
        #expect(resumed.phase == .playing)
        withExtendedLifetime((bobSeat, annBack)) {}
    }

    /// Issue 45 item 9: a newcomer shows at once: the lobby is pushed to everyone listed when
    /// it changes, without their asking.
    @Test func aNewcomerIsPushedToEveryoneListed() throws {
        let server = try TestServer()
        defer { server.stop() }
        let (ann, _) = try Lobby.inLobby(server, "ann")
        let (bob, _) = try Lobby.inLobby(server, "bob")
        let pushed = try ann.waitFor("a pushed lobby") { message -> [LobbyEntry]? in
            if case .lobby(let entries, nil) = message, entries.contains(where: { $0.name == "bob" }) { return entries }
            return nil
        }
        #expect(pushed.map(\.name) == ["ann", "bob"])
        bob.hangUp()
        let after = try ann.waitFor("bob gone") { message -> [LobbyEntry]? in
            if case .lobby(let entries, nil) = message, !entries.contains(where: { $0.name == "bob" }) { return entries }
            return nil
        }
        #expect(after.map(\.name) == ["ann"])
    }

    /// One client changing its own entry over and over (a new name each line) is pushed to the
    /// others in a burst, then once a second with the latest list: the output it causes is the
    /// pace's, not its rate limit's times everyone listed.
    @Test func aClientChangingItsEntryOverAndOverIsPushedAtThePace() throws {
        let server = try TestServer { $0.limits.messageBurst = 10_000 }
        defer { server.stop() }
        let ann = try TestClient.greeted(port: server.port)
        _ = try Self.enter(ann, "ann", id: "a")
        let eve = try TestClient.greeted(port: server.port)
        for index in 1...30 { _ = try Self.enter(eve, "eve\(index)", id: "e\(index)") }
        // A pong comes after every push queued for ann before it.
        ann.send(.ping(time: 1))
        _ = try ann.waitFor("pong") { if case .pong = $0 { true } else { nil } }
        let pushed = ann.received.compactMap { if case .lobby(let entries, nil) = $0 { entries.map(\.name) } else { nil } }
        // Ann's own entry was the burst's first push (to nobody else listed); eve's first seven changes the rest.
        #expect(pushed.count == PushPace.burst - 1, "\(pushed)")
        #expect(pushed.last?.contains("eve30") == false)
        server.advance(by: PushPace.intervalMs)
        let latest = try ann.waitFor("the latest list") { message -> [String]? in
            if case .lobby(let entries, nil) = message, entries.contains(where: { $0.name == "eve30" }) { return entries.map(\.name) }
            return nil
        }
        #expect(Set(latest) == ["ann", "eve30"])
    }
}
