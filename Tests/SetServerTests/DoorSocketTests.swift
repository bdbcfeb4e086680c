import Foundation
import Glibc
import SetNet
import SetServer
import SetWire
import Testing

/// The ssh door's trusted channel, over real sockets: the Unix socket takes only allowed uids,
/// only its connections may say who and where from, and the address they say is the one the
/// per-address limits count.
@Suite struct DoorSocketTests {
    static let fingerprint = "SHA256:" + String(repeating: "A", count: 42) + "Q"

    /// A server with a door socket in a folder of its own.
    static func server(_ configure: @escaping (inout ServerConfig) -> Void = { _ in }) throws -> (TestServer, String) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("door-\(UUID().uuidString.prefix(8))").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let path = folder + "/door.sock"
        let server = try TestServer {
            $0.door.socket = path
            configure(&$0)
        }
        return (server, path)
    }

    /// A connection on the door socket, past its welcome.
    /// A door connection that said which player's it is (or that it is their house bot).
    static func attested(_ path: String, address: String, houseBot: Bool = false, match: String? = nil) throws -> TestClient {
        let door = try Self.door(path)
        door.send(.door(DoorAttestation(fingerprint: nil, address: address, houseBot: houseBot, match: match)))
        return door
    }

    static func door(_ path: String) throws -> TestClient {
        let client = TestClient(connectedSocket: try Sockets.connect(unixPath: path))
        _ = try client.waitFor("welcome") { if case .welcome = $0 { true } else { nil } }
        return client
    }

    /// Sends a ping and waits for its pong: everything sent before it has been handled.
    static func settled(_ client: TestClient) throws {
        client.send(.ping(time: 7))
        _ = try client.waitFor("pong") { if case .pong = $0 { true } else { nil } }
    }

    @Test func theServersOwnUserIsWelcomedAndMayAttestThenJoin() throws {
        let (server, path) = try Self.server()
        defer { server.stop() }
        let door = try Self.door(path)
        door.send(.door(DoorAttestation(fingerprint: Self.fingerprint, address: "203.0.113.5")))
        // Under the key's own door name: a `key-` name is kept for its key (issue 32).
        door.send(.join(JoinRequest(name: DoorAttestation.name(fingerprint: Self.fingerprint), match: "m")))
        _ = try door.waitFor("joined") { if case .joined = $0 { true } else { nil } }
        #expect(!door.received.contains { if case .error = $0 { true } else { false } })
    }

    @Test func anotherUidIsRefusedWithNotADoor() throws {
        let stranger = getuid() == 65_534 ? UInt32(65_533) : UInt32(65_534)
        let (server, path) = try Self.server { $0.door.uids = [stranger] }
        defer { server.stop() }
        let client = TestClient(connectedSocket: try Sockets.connect(unixPath: path))
        let error = try client.awaitError(.notADoor)
        #expect(error.fatal)
        #expect(client.drainToEndOfStream() != nil, "the refused connection is closed")
    }

    @Test func aTcpClientCannotAttestAndCountsAtItsOwnAddress() throws {
        let (server, path) = try Self.server { $0.perAddress.connections = 1 }
        defer { server.stop() }
        let tcp = try TestClient(port: server.port)
        _ = try tcp.waitFor("welcome") { if case .welcome = $0 { true } else { nil } }
        tcp.send(.door(DoorAttestation(fingerprint: Self.fingerprint, address: "203.0.113.5")), id: .int(1))
        let error = try tcp.awaitError(.notADoor)
        #expect(!error.fatal)
        try Self.settled(tcp)
        // Had the claim counted, 203.0.113.5 would hold its one connection already.
        let door = try Self.door(path)
        door.send(.door(DoorAttestation(fingerprint: nil, address: "203.0.113.5")))
        try Self.settled(door)
        #expect(!door.received.contains { if case .error = $0 { true } else { false } })
    }

    @Test func theDoorSpeaksOnceAndBeforeJoining() throws {
        let (server, path) = try Self.server()
        defer { server.stop() }
        let door = try Self.door(path)
        door.send(.door(DoorAttestation(fingerprint: nil, address: "198.51.100.7")))
        door.send(.door(DoorAttestation(fingerprint: Self.fingerprint, address: "198.51.100.8")))
        #expect(try door.awaitError(.notADoor).fatal == false)
    }

    @Test func theAttestedAddressIsWhatThePerAddressLimitCounts() throws {
        let (server, path) = try Self.server { $0.perAddress.connections = 2 }
        defer { server.stop() }
        var held: [TestClient] = []
        for _ in 0..<2 {
            let door = try Self.door(path)
            door.send(.door(DoorAttestation(fingerprint: nil, address: "203.0.113.5")))
            try Self.settled(door)
            held.append(door)
        }
        let third = try Self.door(path)
        third.send(.door(DoorAttestation(fingerprint: nil, address: "203.0.113.5")))
        let error = try third.awaitError(.addressLimit)
        #expect(error.fatal)
        // Another player's address has its own share, though every door connection comes from this host.
        let other = try Self.door(path)
        other.send(.door(DoorAttestation(fingerprint: Self.fingerprint, address: "203.0.113.6")))
        try Self.settled(other)
        #expect(!other.received.contains { if case .error = $0 { true } else { false } })
        // And loopback TCP clients are not held to the door players' shares.
        let local = try TestClient(port: server.port)
        try Self.settled(local)
        #expect(!local.received.contains { if case .error = $0 { true } else { false } })
        #expect(held.count == 2)
    }

    /// A door bot duel waits for its bot, not for a player (only the door seats its bot there):
    /// players behind one address may each sit at a bot duel's start box, and those duels leave
    /// the address's share of duels waiting for a player whole.
    @Test func doorBotDuelsTakeNoneOfAnAddresssWaitingDuels() throws {
        let (server, path) = try Self.server { $0.perAddress = AddressShares(connections: 8, matches: 8, waitingMatches: 1) }
        defer { server.stop() }
        func door(_ match: String?) throws -> TestClient { try Self.attested(path, address: "203.0.113.5", match: match) }
        var held: [TestClient] = []
        for index in 1...3 {
            let player = try door("bot-0000000\(index)")
            #expect(try player.joinOutcome(JoinRequest(name: "guest-482\(index)", match: "bot-0000000\(index)")) == nil)
            held.append(player)
        }
        // The address's one duel waiting for a player is still its own to make, and then spent.
        let open = try door(nil)
        #expect(try open.joinOutcome(JoinRequest(name: "guest-4827", match: "open")) == nil)
        let another = try door(nil)
        #expect(try another.joinOutcome(JoinRequest(name: "guest-4828", match: "second"))?.code == .addressLimit)
        #expect(held.count == 3)
    }

    /// A house bot comes for a player its address's share admitted: it counts against that share
    /// but is never turned away by it, or its player would wait for it at "Dealing…" (or win a
    /// kept duel by its forfeit). What the address opens next is refused as before.
    @Test func aHouseBotIsNotTurnedAwayByItsPlayersFullShare() throws {
        let (server, path) = try Self.server { $0.perAddress = AddressShares(connections: 2, matches: 8, waitingMatches: 8) }
        defer { server.stop() }
        func door(houseBot: Bool = false, match: String? = nil) throws -> TestClient {
            try Self.attested(path, address: "203.0.113.9", houseBot: houseBot, match: match)
        }
        let solo = try door()
        var request = JoinRequest(name: "guest-5101", match: "alone")
        request.mode = .solo
        #expect(try solo.joinOutcome(request) == nil)
        let player = try door(match: "bot-00000001")
        #expect(try player.joinOutcome(JoinRequest(name: "guest-5102", match: "bot-00000001")) == nil, "the share's last connection")
        let bot = try door(houseBot: true, match: "bot-00000001")
        var botJoin = JoinRequest(name: "guest-bot-easy", match: "bot-00000001")
        botJoin.bot = true
        #expect(try bot.joinOutcome(botJoin) == nil, "its bot beside it")
        let third = try door()
        #expect(try third.joinOutcome(JoinRequest(name: "guest-5103", match: "other"))?.code == .addressLimit)
    }

    /// A door bot duel left before anyone moved keeps its deal for the seat wait, as its leave box
    /// says and as `setgame play`'s does: its player and house bot share an address, as a client
    /// dealing itself a duel does (whose match goes once both leave, unmoved), but only the door
    /// seats a bot match. The menu's "Back to your duel" then finds the same twelve cards.
    @Test func aDoorBotDuelLeftBeforeAnyMoveKeepsItsDeal() throws {
        let (server, path) = try Self.server()
        defer { server.stop() }
        let match = "bot-0000abcd"
        func door(houseBot: Bool = false) throws -> TestClient {
            try Self.attested(path, address: "203.0.113.12", houseBot: houseBot, match: match)
        }
        let player = try door()
        player.send(.join(JoinRequest(name: "guest-6101", match: match)))
        let token = try #require(try player.waitFor("joined") { if case .joined(_, _, _, _, let token, _, _) = $0 { token } else { nil } })
        let watcher = try TestClient.greeted(server)
        watcher.send(.join(JoinRequest(role: .spectator, name: "eve", match: match)))
        let bot = try door(houseBot: true)
        var botJoin = JoinRequest(name: "guest-bot-easy", match: match)
        botJoin.bot = true
        #expect(try bot.joinOutcome(botJoin) == nil)
        _ = try watcher.awaitEvent("the deal") { if case .gameStarted = $0 { true } else { false } }
        let dealt = try #require(watcher.view?.table)
        player.hangUp()
        _ = try watcher.awaitEvent("the player gone") { $0.isPresence(of: .first, present: false) }
        bot.hangUp()
        _ = try watcher.awaitEvent("the bot gone") { $0.isPresence(of: .second, present: false) }

        let back = try door()
        var again = JoinRequest(name: "guest-6101", match: match)
        again.token = token
        back.send(.join(again))
        let resumed = try back.waitFor("joined") { if case .joined(_, _, _, _, _, let resumed, _) = $0 { resumed } else { nil } }
        #expect(resumed, "the seat waits")
        _ = try back.waitFor("the snapshot") { if case .snapshot = $0 { true } else { nil } }
        #expect(back.view?.table == dealt, "the same twelve cards")
    }

    /// A server killed without closing leaves its socket file: the next start replaces it.
    @Test func aSocketLeftByAnEarlierRunIsReplaced() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("door-\(UUID().uuidString.prefix(8))").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let path = folder + "/door.sock"
        close(try Sockets.listen(unixPath: path))  // closed, not unlinked: as after a kill -9
        let server = try TestServer { $0.door.socket = path }
        defer { server.stop() }
        let door = try Self.door(path)
        try Self.settled(door)
    }

    @Test func aFileInTheWayIsNotRemoved() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("door-\(UUID().uuidString.prefix(8))").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let path = folder + "/precious"
        try Data("keep me".utf8).write(to: URL(fileURLWithPath: path))
        var config = ServerConfig()
        config.port = 0
        config.door.socket = path
        #expect(throws: ServerStartError.self) { _ = try Server(config: config, log: .silent) }
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "keep me")
    }
}
