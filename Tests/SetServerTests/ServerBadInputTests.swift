import SetNet
import SetRules
import SetServer
import SetWire
import Testing

/// Every kind of bad input gets its own coded error, the connection stays usable unless the
/// error is fatal, and a match elsewhere on the server never notices.
@Suite(.serialized) struct ServerBadInputTests {
    /// A match that must keep working while other connections misbehave.
    struct ControlMatch {
        let ann: TestClient, bob: TestClient

        init(_ server: TestServer) throws {
            ann = try TestClient.joined(server, name: "ann", match: "control")
            bob = try TestClient.joined(server, name: "bob", match: "control")
            try ann.awaitSeq(bob.view!.seq)
        }

        /// Takes a set and checks both players saw it.
        func stillPlays() throws {
            let set = try #require(SetLogic.firstSet(in: ann.view!.table))
            let scoreBefore = ann.view!.scores[0]
            ann.send(.act(.claim, seat: nil))
            for card in set { ann.send(.act(.select(card), seat: nil)) }
            let taken = try bob.awaitEvent("set taken") { if case .rules(.setTaken) = $0 { true } else { false } }
            try ann.awaitSeq(taken.seq)
            #expect(ann.view!.scores[0] > scoreBefore)
            #expect(bob.view == ann.view)
        }
    }

    func greeted(_ server: TestServer) throws -> TestClient {
        let client = try TestClient(port: server.port)
        _ = try client.next("welcome")
        return client
    }

    func expectOpen(_ client: TestClient) throws {
        client.send(.ping(time: 1))
        _ = try client.waitFor("pong") { if case .pong(_, 1, _) = $0 { true } else { nil } }
    }

    @Test(arguments: [
        ("garbage\n", ErrorCode.badJSON),
        ("{\"type\":\"join\",\"name\":\n", .badJSON),
        ("[1,2,3]\n", .notAnObject),
        ("42\n", .notAnObject),
        ("{\"type\":\"teleport\"}\n", .unknownType),
        ("{\"name\":\"ann\"}\n", .missingField),
        ("{\"type\":\"join\"}\n", .missingField),
        ("{\"type\":\"join\",\"name\":\"\"}\n", .badField),
        ("{\"type\":\"join\",\"name\":\"a\\u2028b\"}\n", .badField),
        ("{\"type\":\"join\",\"name\":\"a\\u200Bb\"}\n", .badField),
        ("{\"type\":\"join\",\"name\":\" ann\"}\n", .badField),
        ("{\"type\":\"join\",\"name\":\"ann\",\"match\":\"no spaces allowed\"}\n", .badField),
        ("{\"type\":\"join\",\"name\":\"ann\",\"role\":\"referee\"}\n", .badField),
        ("{\"type\":\"join\",\"name\":\"ann\",\"protocol\":99}\n", .unsupportedVersion),
        ("{\"type\":\"select\",\"card\":\"the ace of spades\"}\n", .badField),
        ("{\"type\":\"select\",\"card\":81}\n", .badField),
        ("{\"type\":\"select\"}\n", .missingField),
        ("{\"type\":\"claim\"}\n", .notJoined),
        ("{\"type\":\"snapshot\"}\n", .notJoined),
        ("{\"type\":\"ping\",\"id\":[1]}\n", .badField),
        ("{\"type\":\"join\",\"name\":\"ann\",\"role\":\"spectator\"}\n", .missingField),
        ("{\"type\":\"join\",\"name\":\"ann\",\"role\":\"spectator\",\"match\":\"nowhere\"}\n", .noSuchMatch),
        ("{\"type\":\"join\",\"name\":\"ann\",\"token\":\"0123456789abcdef0123456789abcdef\"}\n", .badToken),
    ])
    func eachBadLineGetsItsCodeAndTheServerCarriesOn(line: String, code: ErrorCode) throws {
        let server = try TestServer()
        defer { server.stop() }
        let control = try ControlMatch(server)
        let client = try greeted(server)
        client.sendRaw(line)
        let error = try client.awaitError(code)
        #expect(!error.fatal)
        #expect(!error.message.isEmpty)
        try expectOpen(client)
        try control.stillPlays()
    }

    @Test func invalidUTF8IsRefusedAndTheNextLineStillWorks() throws {
        let server = try TestServer()
        defer { server.stop() }
        let client = try greeted(server)
        client.sendRaw([0x7B, 0xFF, 0xFE, 0x7D, 0x0A])
        _ = try client.awaitError(.invalidUTF8)
        try expectOpen(client)
    }

    @Test func aOneMebibyteLineIsRefusedWithoutClosingTheConnection() throws {
        let server = try TestServer()
        defer { server.stop() }
        let control = try ControlMatch(server)
        let client = try greeted(server)
        client.sendRaw([UInt8](repeating: 0x61, count: 1 << 20) + [0x0A])
        let error = try client.awaitError(.lineTooLong)
        #expect(error.message.contains("1048576 bytes"))
        try expectOpen(client)
        try control.stillPlays()
    }

    @Test func crlfAndEmptyLinesAreFine() throws {
        let server = try TestServer()
        defer { server.stop() }
        let client = try greeted(server)
        client.sendRaw("\n\r\n   \n{\"type\":\"ping\",\"time\":5}\r\n")
        let pong = try client.next("pong")
        #expect(pong == .pong(time: 1_000, clientTime: 5, id: nil))
    }

    @Test func playersCannotActOutsideTheirWindowOrForAnotherSeat() throws {
        let server = try TestServer()
        defer { server.stop() }
        let control = try ControlMatch(server)
        let (ann, bob) = try TestClient.duel(server)
        let card = ann.view!.table[0]
        ann.send(.act(.select(card), seat: nil), id: 1)
        let (refusal, echoed) = try ann.waitFor("refusal") { if case .error(let e, let id) = $0 { (e, id) } else { nil } }
        #expect(refusal.code == .claimFirst)
        #expect(echoed == 1, "the error echoes the request's id")
        bob.send(.act(.claim, seat: nil))
        _ = try ann.awaitEvent("bob's claim") { if case .rules(.windowOpened) = $0 { true } else { false } }
        ann.send(.act(.select(card), seat: nil))
        #expect(try ann.awaitError(.notYourWindow).message == "bob holds the window.")
        ann.send(.act(.pass, seat: .second), id: "mine")
        let (error, id) = try ann.waitFor("not your seat") { if case .error(let e, let id) = $0, e.code == .notYourSeat { (e, id) } else { nil } }
        #expect(error.message == "You sit in seat 0, not seat 1.")
        #expect(id == "mine")
        let thief = try greeted(server)
        thief.send(.join(JoinRequest(name: "mallory", match: "m", seat: .first)))
        _ = try thief.awaitError(.seatTaken)
        thief.send(.join(JoinRequest(name: "mallory", match: "m")))
        _ = try thief.awaitError(.matchFull)
        thief.send(.join(JoinRequest(name: "mallory", match: "m", mode: .solo)))
        _ = try thief.awaitError(.modeMismatch)
        _ = try bob.awaitEvent("own claim") { if case .rules(.windowOpened) = $0 { true } else { false } }
        bob.send(.ping(time: 2))
        #expect(try bob.next("pong") == ServerMessage.pong(time: 1_000, clientTime: 2, id: nil))
        #expect(bob.view?.window?.holder == .second)
        try control.stillPlays()
    }

    @Test func spectatorsCannotAct() throws {
        let server = try TestServer()
        defer { server.stop() }
        let control = try ControlMatch(server)
        let eve = try TestClient.joined(server, name: "eve", match: "control", role: .spectator)
        for action in [Action.claim, .deal, .select(eve.view!.table[0]), .resign] {
            eve.send(.act(action, seat: nil))
            _ = try eve.awaitError(.spectatorsCannotAct)
        }
        try control.stillPlays()
        _ = try eve.awaitEvent("the set the players took") { if case .rules(.setTaken) = $0 { true } else { false } }
    }

    @Test func joiningTwiceIsRefused() throws {
        let server = try TestServer()
        defer { server.stop() }
        let ann = try TestClient.joined(server, name: "ann")
        ann.send(.join(JoinRequest(name: "ann", match: "other")))
        _ = try ann.awaitError(.alreadyJoined)
    }

    @Test func aFloodIsRateLimited() throws {
        let server = try TestServer { $0.limits.messageBurst = 5 }
        defer { server.stop() }
        let client = try greeted(server)
        client.sendRaw(String(repeating: "{\"type\":\"ping\"}\n", count: 8))
        var pongs = 0, limited = 0
        for _ in 0..<8 {
            switch try client.next("reply") {
            case .pong: pongs += 1
            case .error(let error, _) where error.code == .rateLimited: limited += 1
            default: break
            }
        }
        #expect(pongs == 5 && limited == 3)
        server.advance(by: 1_000)
        try expectOpen(client)
    }

    @Test func connectionsBeyondTheLimitAreRefused() throws {
        let server = try TestServer { $0.limits.maxConnections = 2 }
        defer { server.stop() }
        let first = try greeted(server), second = try greeted(server)
        let third = try TestClient(port: server.port)
        let error = try third.awaitError(.serverFull)
        #expect(error.fatal)
        try expectOpen(first)
        try expectOpen(second)
    }

    @Test func aLiveSeatIsNotTakenOverWithoutAsking() throws {
        let server = try TestServer()
        defer { server.stop() }
        let ann = try TestClient.joined(server, name: "ann")
        let token = try #require(ann.token)
        let second = try TestClient(port: server.port)
        _ = try second.waitFor("welcome") { if case .welcome = $0 { true } else { nil } }
        second.send(.join(JoinRequest(name: "ann", match: "m", token: token)))
        let error = try second.awaitError(.seatInUse)
        #expect(!error.fatal)
        #expect(error.message.contains("ann is still connected"))
        #expect(second.seat == nil)
        try expectOpen(ann)
        try expectOpen(second)
    }

    @Test func theSameTokenTakesTheSeatOverWhenAsked() throws {
        let server = try TestServer()
        defer { server.stop() }
        let ann = try TestClient.joined(server, name: "ann")
        let token = try #require(ann.token)
        let again = try TestClient(port: server.port)
        _ = try again.waitFor("welcome") { if case .welcome = $0 { true } else { nil } }
        again.send(.join(JoinRequest(name: "ann", match: "m", token: token, takeOver: true)))
        _ = try again.waitFor("snapshot") { if case .snapshot = $0 { true } else { nil } }
        #expect(again.seat == .first)
        let error = try ann.awaitError(.replaced)
        #expect(error.fatal)
        try expectOpen(again)
    }

    @Test func stoppingTheServerSaysGoodbyeToEveryone() throws {
        let server = try TestServer()
        let ann = try TestClient.joined(server, name: "ann")
        let eve = try TestClient.joined(server, name: "eve", role: .spectator)
        server.stop()
        for client in [ann, eve] {
            _ = try client.waitFor("goodbye") { if case .goodbye = $0 { true } else { nil } }
        }
    }
}
