import SetRules
import SetServer
import SetWire
import Testing

/// The lobby and "challenge NAME" over real sockets (Protocol.md, "The lobby and challenges"):
/// who is listed, a challenge told to the other side, accepted into a private match both join,
/// declined, expired on the server's clock, and the refusals.
@Suite struct ChallengeTests {
    /// A connection listed in the lobby under `name`, having read the lobby's answer.
    static func inLobby(_ server: TestServer, _ name: String, variant: Variant? = nil) throws -> (TestClient, [LobbyEntry]) {
        let client = try TestClient(port: server.port)
        _ = try client.waitFor("welcome") { if case .welcome = $0 { true } else { nil } }
        client.send(.lobby(.enter(JoinRequest(name: name, variant: variant))))
        let entries = try client.waitFor("lobby") { if case .lobby(let entries, _) = $0 { entries } else { nil } }
        return (client, entries)
    }

    static func notice(_ client: TestClient) throws -> ChallengeNotice {
        try client.waitFor("challenge") { if case .challenge(let notice, _) = $0 { notice } else { nil } }
    }

    /// `challenger` challenges `name` (on `challenged`): the open notice, once both sides have it.
    static func opened(by challenger: TestClient, to name: String, on challenged: TestClient, variant: Variant? = nil) throws -> ChallengeNotice {
        challenger.send(.lobby(.challenge(name: name, variant: variant)))
        let open = try notice(challenged)
        _ = try notice(challenger)
        return open
    }

    /// `challenger` challenges `challenged`, who accepts: the notice the accepting side got.
    static func accepted(_ challenger: (TestClient, String), _ challenged: (TestClient, String)) throws -> ChallengeNotice {
        challenger.0.send(.lobby(.challenge(name: challenged.1, variant: nil)))
        _ = try notice(challenged.0)
        challenged.0.send(.lobby(.accept(from: challenger.1)))
        let answer = try notice(challenged.0)
        _ = try notice(challenger.0)
        return answer
    }

    @Test func theLobbyListsWhoIsHereWithTheirVariant() throws {
        let server = try TestServer()
        defer { server.stop() }
        let (ann, first) = try Self.inLobby(server, "ann", variant: .junior)
        #expect(first == [LobbyEntry(name: "ann", variant: .junior)])
        let (bob, second) = try Self.inLobby(server, "bob")
        defer { _ = (ann, bob) }  // both stay connected, so both stay listed
        #expect(second == [LobbyEntry(name: "ann", variant: .junior), LobbyEntry(name: "bob", variant: .classic)])
    }

    @Test func aChallengeAcceptedSeatsBothInAPrivateMatch() throws {
        let server = try TestServer()
        defer { server.stop() }
        let (ann, _) = try Self.inLobby(server, "ann")
        let (bob, _) = try Self.inLobby(server, "bob")
        ann.send(.lobby(.challenge(name: "bob", variant: .chain)), id: "c")
        let sent = try Self.notice(ann)
        #expect(sent.state == .open && sent.from == "ann" && sent.to == "bob" && sent.variant == .chain)
        #expect(sent.expiresAt == 1_000 + Challenges.lifetimeMs)
        let heard = try Self.notice(bob)
        #expect(heard.state == .open && heard.from == "ann" && heard.token == nil)

        bob.send(.lobby(.accept(from: "ann")))
        let bobs = try Self.notice(bob), anns = try Self.notice(ann)
        #expect(bobs.state == .accepted && anns.state == .accepted)
        let match = try #require(bobs.match)
        #expect(anns.match == match && bobs.token != nil && anns.token != nil && bobs.token != anns.token)

        // A stranger cannot take a seat in it by its name.
        let eve = try TestClient(port: server.port)
        eve.send(.join(JoinRequest(name: "eve", match: match)))
        #expect(try eve.awaitError(.matchFull).code == .matchFull)

        ann.send(.join(JoinRequest(name: "ann", match: match, token: anns.token)))
        bob.send(.join(JoinRequest(name: "bob", match: match, token: bobs.token)))
        let annView = try ann.waitFor("snapshot") { if case .snapshot(let view) = $0 { view } else { nil } }
        let bobView = try bob.waitFor("snapshot") { if case .snapshot(let view) = $0 { view } else { nil } }
        #expect(annView.match == match && bobView.match == match)
        #expect(bobView.phase == .playing && bobView.variant == .chain)
        #expect(Set(bobView.players.map(\.name)) == ["ann", "bob"])
    }

    @Test func anAcceptedChallengeNobodyPlaysLapsesAfterASeatWait() throws {
        let server = try TestServer()
        defer { server.stop() }
        let (ann, _) = try Self.inLobby(server, "ann")
        let (bob, _) = try Self.inLobby(server, "bob")
        let lapsed = try Self.accepted((ann, "ann"), (bob, "bob"))
        // Nobody joins it for a seat wait (the two idle connections are let go meanwhile); the
        // next accepted challenge forgets it.
        server.advance(by: ServerConfig().limits.seatWaitMs + 1)
        let (cy, _) = try Self.inLobby(server, "cy")
        let (di, _) = try Self.inLobby(server, "di")
        let kept = try Self.accepted((cy, "cy"), (di, "di"))
        let late = try TestClient(port: server.port)
        late.send(.join(JoinRequest(name: "bob", match: lapsed.match, token: lapsed.token)))
        #expect(try late.awaitError(.badToken).code == .badToken)
        // The fresh one still seats its player.
        di.send(.join(JoinRequest(name: "di", match: kept.match, token: kept.token)))
        let view = try di.waitFor("snapshot") { if case .snapshot(let view) = $0 { view } else { nil } }
        #expect(view.match == kept.match)
        _ = (ann, bob)
    }

    @Test func aDeclineTellsTheChallengerAndFreesTheirNextChallenge() throws {
        let server = try TestServer()
        defer { server.stop() }
        let (ann, _) = try Self.inLobby(server, "ann")
        let (bob, _) = try Self.inLobby(server, "bob")
        ann.send(.lobby(.challenge(name: "bob", variant: nil)))
        _ = try Self.notice(ann)
        _ = try Self.notice(bob)
        ann.send(.lobby(.challenge(name: "bob", variant: nil)))
        #expect(try ann.awaitError(.challengeOpen).details["expiresAt"] == .int(61_000))
        bob.send(.lobby(.decline(from: "ann")))
        #expect(try Self.notice(ann).state == .declined)
        #expect(try Self.notice(bob).state == .declined)
        bob.send(.lobby(.accept(from: "ann")))
        _ = try bob.awaitError(.noSuchChallenge)
        ann.send(.lobby(.challenge(name: "bob", variant: nil)))
        #expect(try Self.notice(ann).state == .open)
    }

    @Test func aChallengeExpiresOnTheServersClock() throws {
        let server = try TestServer()
        defer { server.stop() }
        let (ann, _) = try Self.inLobby(server, "ann")
        let (bob, _) = try Self.inLobby(server, "bob")
        ann.send(.lobby(.challenge(name: "bob", variant: nil)))
        _ = try Self.notice(bob)
        _ = try Self.notice(ann)
        server.advance(by: Challenges.lifetimeMs)
        #expect(try Self.notice(ann).state == .expired)
        bob.send(.lobby(.accept(from: "ann")))
        _ = try bob.awaitError(.noSuchChallenge)
        // The expired one no longer holds the challenger back.
        ann.send(.lobby(.challenge(name: "bob", variant: nil)))
        #expect(try Self.notice(ann).state == .open)
    }

    /// Issue 36 item 5, the lobby: an open challenge's minute running out is told to both sides, on the
    /// server's clock, with nothing sent by either; an accept after it finds nothing.
    @Test func anExpiredChallengeIsToldToBothSides() throws {
        let server = try TestServer()
        defer { server.stop() }
        let (ann, _) = try Self.inLobby(server, "ann")
        let (bob, _) = try Self.inLobby(server, "bob", variant: .junior)
        let open = try Self.opened(by: ann, to: "bob", on: bob, variant: .junior)
        server.advance(by: Challenges.lifetimeMs - 1)
        // One millisecond early, nothing: the next thing bob hears is the lobby he asks for.
        bob.send(.lobby(.enter(JoinRequest(name: "bob", variant: .junior))))
        _ = try bob.waitFor("lobby") { message -> Bool? in
            if case .challenge = message { Issue.record("told of an expiry early") }
            if case .lobby = message { return true } else { return nil }
        }
        server.advance(by: 1)
        let expected = ChallengeNotice(from: "ann", to: "bob", variant: .junior, state: .expired, expiresAt: open.expiresAt)
        #expect(try Self.notice(bob) == expected)
        #expect(try Self.notice(ann) == expected)
        bob.send(.lobby(.accept(from: "ann")))
        _ = try bob.awaitError(.noSuchChallenge)
    }

    /// A challenger who comes back into the lobby under another name withdraws the challenge,
    /// and is told so as the other side is: listed under the new name, it was not among those
    /// the old name's expiry reached.
    @Test func aChallengerWhoTakesAnotherNameIsToldTheChallengeEnded() throws {
        let server = try TestServer()
        defer { server.stop() }
        let (ann, _) = try Self.inLobby(server, "ann")
        let (bob, _) = try Self.inLobby(server, "bob")
        let open = try Self.opened(by: ann, to: "bob", on: bob)
        ann.send(.lobby(.enter(JoinRequest(name: "anna"))))
        let expected = ChallengeNotice(from: "ann", to: "bob", variant: .classic, state: .expired, expiresAt: open.expiresAt)
        #expect(try Self.notice(bob) == expected)
        #expect(try Self.notice(ann) == expected, "the challenger, now anna")
    }

    /// A guest listed as "bob" while the name was free, after an account took it: when the owner
    /// comes into the lobby the guest leaves the list and is told why, and its challenge ends for
    /// both sides. Before, the owner was refused its own name and the guest went on challenging as
    /// bob.
    @Test func anAccountComingInUnderItsNameDisplacesAGuestListedAsIt() throws {
        let server = try TestServer()
        defer { server.stop() }
        let (guest, _) = try Self.inLobby(server, "bob")
        let (carl, _) = try Self.inLobby(server, "carl")
        let open = try Self.opened(by: guest, to: "carl", on: carl)
        // The name becomes an account's at a seat elsewhere, as any first seat makes it.
        let seated = try TestClient.joined(port: server.port, name: "bob", key: AccountTests.bobKey, match: "solo-bob")
        let owner = try TestClient(port: server.port)
        _ = try owner.waitFor("welcome") { if case .welcome = $0 { true } else { nil } }
        var entering = JoinRequest(name: "bob")
        entering.account = AccountTests.bobKey
        owner.send(.lobby(.enter(entering)), id: "in")
        let listed = try owner.waitFor("the owner listed") { message -> [LobbyEntry]? in
            if case .error(let error, _) = message { Issue.record("the owner was refused: \(error.message)") ; return [] }
            if case .lobby(let entries, .string("in")?) = message { return entries } else { return nil }
        }
        #expect(listed.map(\.name).sorted() == ["bob", "carl"], "one bob: the account")
        let expired = ChallengeNotice(from: "bob", to: "carl", variant: .classic, state: .expired, expiresAt: open.expiresAt)
        #expect(try Self.notice(carl) == expired)
        #expect(try Self.notice(guest) == expired)
        let told = try guest.waitFor("the guest told why") { message -> WireError? in
            if case .error(let error, nil) = message { error } else { nil }
        }
        #expect(told.code == .nameTaken && told.message.contains("its owner came into the lobby"), "\(told.message)")
        carl.send(.lobby(.accept(from: "bob")))
        _ = try carl.awaitError(.noSuchChallenge)
        withExtendedLifetime(seated) {}
    }

    @Test func challengesAreRateLimited() throws {
        let server = try TestServer()
        defer { server.stop() }
        let (ann, _) = try Self.inLobby(server, "ann")
        let (bob, _) = try Self.inLobby(server, "bob")
        for _ in 0..<Challenges.allowance {
            ann.send(.lobby(.challenge(name: "bob", variant: nil)))
            _ = try Self.notice(ann)
            bob.send(.lobby(.decline(from: "ann")))
            _ = try Self.notice(ann)
        }
        ann.send(.lobby(.challenge(name: "bob", variant: nil)))
        let limited = try ann.awaitError(.challengeLimited)
        #expect(limited.details["retryAfterMs"] == .int(Challenges.allowanceMs))
        server.advance(by: Challenges.allowanceMs)
        ann.send(.lobby(.challenge(name: "bob", variant: nil)))
        #expect(try Self.notice(ann).state == .open)
    }

    @Test func challengesToYourselfOrToNobodyOrFromOutsideAreRefused() throws {
        let server = try TestServer()
        defer { server.stop() }
        let outsider = try TestClient(port: server.port)
        outsider.send(.lobby(.challenge(name: "ann", variant: nil)))
        _ = try outsider.awaitError(.notInLobby)
        let (ann, _) = try Self.inLobby(server, "ann")
        ann.send(.lobby(.challenge(name: "ANN", variant: nil)))
        _ = try ann.awaitError(.challengeSelf)
        ann.send(.lobby(.challenge(name: "zed", variant: nil)))
        #expect(try ann.awaitError(.playerNotHere).message.contains("zed"))
        // Someone who left the lobby (closed, or sat down in a match) is not there to challenge.
        let (bob, _) = try Self.inLobby(server, "bob")
        bob.hangUp()
        let (cat, _) = try Self.inLobby(server, "cat")
        cat.send(.join(JoinRequest(name: "cat", match: "m")))
        _ = try cat.waitFor("snapshot") { if case .snapshot = $0 { true } else { nil } }
        for name in ["bob", "cat"] {
            ann.send(.lobby(.challenge(name: name, variant: nil)))
            _ = try ann.awaitError(.playerNotHere)
        }
    }

    @Test func aNameListedByAnotherGuestIsRefused() throws {
        let server = try TestServer()
        defer { server.stop() }
        let (ann, _) = try Self.inLobby(server, "ann")
        defer { _ = ann }
        let (ann2, _) = try Self.inLobby(server, "ann2")
        defer { _ = ann2 }
        let other = try TestClient(port: server.port)
        other.send(.lobby(.enter(JoinRequest(name: "Ann"))))
        let refused = try other.awaitError(.nameTaken)
        // As a seat's refused name: a free one to take instead, listed by nobody ("ann2" is).
        #expect(refused.details["suggestion"] == .string("Ann3"))
        #expect(refused.message == "The name \"Ann\" is someone else's in the lobby; try \"Ann3\".")
    }

    @Test func aRefusedNameIsAnsweredWithOneThatIsFree() throws {
        let server = try TestServer()
        defer { server.stop() }
        for (index, name) in ["ann", "ann2"].enumerated() {
            let owner = try TestClient(port: server.port)
            var join = JoinRequest(name: name, match: "m\(index)")
            join.account = String(repeating: "a\(index)", count: 32)
            owner.send(.join(join))
            _ = try owner.waitFor("snapshot") { if case .snapshot = $0 { true } else { nil } }
        }
        let asking = try TestClient(port: server.port)
        asking.send(.lobby(.enter(JoinRequest(name: "Ann"))))
        // "Ann2" is "ann2"'s: the lobby suggests what a seat would, the first name nobody owns.
        #expect(try asking.awaitError(.nameTaken).details["suggestion"] == .string("Ann3"))
    }
}

/// The door's "Your name" asks the server as coming into the lobby: the name is checked as a new
/// seat's is, with the server's reason, on the door's socket as the key it vouches for.
@Suite struct LobbyNameCheckTests {
    @Test func aNameKeptForTheHouseOrAnotherAccountIsRefusedWithTheReason() throws {
        let server = try TestServer()
        defer { server.stop() }
        let owner = try TestClient(port: server.port)
        var join = JoinRequest(name: "ann", match: "m")
        join.account = String(repeating: "a1", count: 32)
        owner.send(.join(join))
        _ = try owner.waitFor("snapshot") { if case .snapshot = $0 { true } else { nil } }

        for (name, code) in [("ANN", ErrorCode.nameTaken), ("guest-7", .nameTaken), ("key-zz", .nameTaken)] {
            let asking = try TestClient(port: server.port)
            var enter = JoinRequest(name: name)
            enter.account = String(repeating: "b2", count: 32)
            asking.send(.lobby(.enter(enter)))
            let refusal = try asking.awaitError(code)
            #expect(!refusal.message.isEmpty, "\(name)")
        }
        let own = try TestClient(port: server.port)
        var mine = JoinRequest(name: "Ann")
        mine.account = String(repeating: "a1", count: 32)
        own.send(.lobby(.enter(mine)))
        _ = try own.waitFor("lobby") { if case .lobby = $0 { true } else { nil } }
        withExtendedLifetime(owner) {}
    }

    /// A name a key takes in the lobby (the door's "Your name") is its account's at once: a
    /// second key asking for it before the first ever played is refused as another's (issue 45).
    @Test func aNameTakenInTheLobbyIsTheAccountsBeforeAnyGame() throws {
        let server = try TestServer()
        defer { server.stop() }
        let first = try TestClient(port: server.port)
        var mine = JoinRequest(name: "zed")
        mine.account = String(repeating: "c3", count: 32)
        first.send(.lobby(.enter(mine)))
        _ = try first.waitFor("lobby") { if case .lobby = $0 { true } else { nil } }
        first.hangUp()
        let second = try TestClient(port: server.port)
        var theirs = JoinRequest(name: "Zed")
        theirs.account = String(repeating: "d4", count: 32)
        second.send(.lobby(.enter(theirs)))
        // Not "someone is in the lobby as zed": the account owns the name, whoever is listed.
        #expect(try second.awaitError(.nameTaken).message.contains("belongs to another player here"))
    }
}
