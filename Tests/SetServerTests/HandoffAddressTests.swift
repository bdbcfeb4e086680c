import Foundation
import SetDatabase
import SetNet
@testable import SetServer
import SetRules
import SetTestSupport
import SetWire
import Testing

/// A door player handed to another node is counted there at the address the door attested for
/// them, not at the door host's address their TCP connection comes from (Protocol.md, "Handoff
/// tickets"): otherwise every ssh player of one door shares one address's limits on that node.
/// The address comes from the row the door's node wrote, never from the wire.
@Suite(.serialized) struct HandoffAddressTests {
    static let wall = HandoffTicketTests.wall
    static let player = "203.0.113.5", neighbour = "203.0.113.9"

    /// A fingerprint of its own for each door player of a test.
    static func fingerprint(_ letter: Character) -> String { "SHA256:" + String(repeating: letter, count: 42) + "Q" }

    // MARK: The store

    @Test(arguments: TestStoreKind.allCases)
    func aTicketKeepsTheAttestedAddress(kind: TestStoreKind) throws {
        guard let database = try TestDatabase.make(kind) else { return }
        let store = try HandoffTicketTests.store(database)
        let handoff = DoorHandoff(identity: .sshKey(fingerprint: Self.fingerprint("B")), name: "key-b", match: "m", address: Self.player)
        let ticket = DoorHandoff.makeTicket()
        try store.mint(ticket, for: handoff, expiresWallMs: Self.wall + DoorHandoff.lifetimeMs, nowWallMs: Self.wall)
        #expect(try store.redeem(ticket, match: "m", nowWallMs: Self.wall)?.address == Self.player)
    }

    @Test(arguments: TestStoreKind.allCases)
    func aRowWrittenBeforeMigration6HasNoAddress(kind: TestStoreKind) throws {
        guard let database = try TestDatabase.make(kind) else { return }
        let store = try HandoffTicketTests.store(database)
        // As a node of the version before writes it: without the column.
        let ticket = DoorHandoff.makeTicket()
        try database.database.execute("INSERT INTO handoffs (ticket, identity, name, match, expires_wall_ms) VALUES ($1, 'guest', 'guest-3', 'm', $2)",
                                      .text(ticket), .int(Self.wall + DoorHandoff.lifetimeMs))
        let redeemed = try #require(try store.redeem(ticket, match: "m", nowWallMs: Self.wall))
        #expect(redeemed == DoorHandoff(identity: .guest, name: "guest-3", match: "m", address: nil))
    }

    // MARK: Across nodes

    /// Node b, holding at most `perAddress` connections of one address, and letting each address
    /// open `connectsPerSecond` new ones a second (twice as many at once).
    static func nodeB(_ database: TestDatabase, perAddress: Int? = nil, connectsPerSecond: Int? = nil) throws -> TestServer {
        try TestServer {
            $0.store = .postgres(database.location)
            $0.cluster.node = "b"
            $0.cluster.advertise = "127.0.0.1:0"
            $0.cluster.wallBaseMs = NodeServerTests.wallBase
            $0.perAddress.connections = perAddress
            if let connectsPerSecond { $0.perAddress.connectsPerSecond = connectsPerSecond }
        }
    }

    /// The ticket node a's door socket gave a key attested at `address` asking for `match`.
    static func ticket(_ doorPath: String, key letter: Character, address: String, match: String) throws -> String {
        let door = try DoorSocketTests.door(doorPath)
        let fingerprint = Self.fingerprint(letter)
        door.send(.door(DoorAttestation(fingerprint: fingerprint, address: address)))
        door.send(.join(JoinRequest(name: DoorAttestation.name(fingerprint: fingerprint), match: match)))
        return try #require(try NodeServerTests.redirect(door).ticket)
    }

    @Test func aTicketSeatedPlayerCountsAtTheAttestedAddressNotTheDoorHosts() throws {
        guard let database = try TestDatabase.make(.postgres) else { return }
        let path = try HandoffTicketTests.doorPath()
        let a = try HandoffTicketTests.node("a", database, door: path), b = try Self.nodeB(database, perAddress: 1)
        defer { a.stop(); b.stop() }
        let match = NodeServerTests.matchName(on: "b", among: ["a", "b"])
        let ticket = try Self.ticket(path, key: "B", address: Self.player, match: match)
        let seated = try HandoffTicketTests.ticketJoin(b, match: match, ticket: ticket)
        #expect(try NodeServerTests.joined(seated) == (.player, match, .first))
        #expect(b.logLines.all.contains { $0.contains("came through the door on another node from \(Self.player)") })
        // The door host (127.0.0.1 here) holds nothing on b: its one connection may still open.
        let neighbour = try NodeServerTests.greeted(b)
        try DoorSocketTests.settled(neighbour)
    }

    @Test func thePerAddressLimitHoldsTheAttestedAddressNotTheDoorHosts() throws {
        guard let database = try TestDatabase.make(.postgres) else { return }
        let path = try HandoffTicketTests.doorPath()
        let a = try HandoffTicketTests.node("a", database, door: path), b = try Self.nodeB(database, perAddress: 1)
        defer { a.stop(); b.stop() }
        let match = NodeServerTests.matchName(on: "b", among: ["a", "b"])
        let first = try Self.ticket(path, key: "B", address: Self.player, match: match)
        let second = try Self.ticket(path, key: "C", address: Self.player, match: match)
        let other = try Self.ticket(path, key: "D", address: Self.neighbour, match: match)
        let seated = try HandoffTicketTests.ticketJoin(b, match: match, ticket: first)
        #expect(try NodeServerTests.joined(seated) == (.player, match, .first))
        // The same player's address already holds its one connection on b: refused for that address.
        let refused = try HandoffTicketTests.ticketJoin(b, match: match, ticket: second)
        #expect(try refused.awaitError(.addressLimit).fatal)
        #expect(b.logLines.all.contains { $0.contains("refused a door player handed over for \(Self.player)") })
        // Another address through the same door host is let in: it is counted apart.
        let neighbour = try HandoffTicketTests.ticketJoin(b, match: match, ticket: other)
        #expect(try NodeServerTests.joined(neighbour) == (.player, match, .second))
    }

    @Test func theDoorHostsConnectAllowanceIsNotSpentOnItsPlayers() throws {
        guard let database = try TestDatabase.make(.postgres) else { return }
        let path = try HandoffTicketTests.doorPath()
        // One new connection a second, two at once; b's clock stands still, so nothing refills.
        let a = try HandoffTicketTests.node("a", database, door: path), b = try Self.nodeB(database, connectsPerSecond: 1)
        defer { a.stop(); b.stop() }
        let match = NodeServerTests.matchName(on: "b", among: ["a", "b"]), other = NodeServerTests.matchName(on: "b", among: ["a", "b"], prefix: "n")
        let players: [(match: String, address: String, key: Character)] = [(match, "203.0.113.5", "B"), (match, "203.0.113.6", "C"),
                                                                           (other, "203.0.113.7", "D")]
        let tickets = try players.map { ($0.match, try Self.ticket(path, key: $0.key, address: $0.address, match: $0.match)) }
        // Three door players from the one door host, more than its allowance: each pays at its own address.
        for (match, ticket) in tickets {
            let seated = try HandoffTicketTests.ticketJoin(b, match: match, ticket: ticket)
            #expect(try NodeServerTests.joined(seated).1 == match)
        }
        // The door host's own connections still pay: two at once, and the third is refused.
        _ = try NodeServerTests.greeted(b)
        _ = try NodeServerTests.greeted(b)
        let third = try TestClient(port: b.port)
        #expect(try third.awaitError(.addressLimit).message.contains("connects too often"))
    }
}
