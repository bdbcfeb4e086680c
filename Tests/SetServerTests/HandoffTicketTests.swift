import Foundation
import SetDatabase
import SetNet
@testable import SetServer
import SetRules
import SetTestSupport
import SetWire
import Testing

/// Handoff tickets (Protocol.md, "Handoff tickets"): a door player who reached node A plays on
/// node B under the key the door vouched for, through a one-use ticket A writes in the shared
/// store; a ticket used twice, expired, for another match or made up seats nobody, and a TCP
/// join still cannot claim a door identity without one.
@Suite(.serialized) struct HandoffTicketTests {
    static let fingerprint = DoorSocketTests.fingerprint
    static var keyName: String { DoorAttestation.name(fingerprint: fingerprint) }
    static let wall: Int64 = 1_800_000_000_000

    static func store(_ database: TestDatabase) throws -> SQLAccountStore {
        try SQLAccountStore(database: database.database, wallSeconds: wall / 1_000)
    }

    // MARK: The store

    @Test func aTicketSeatsOnceForItsMatchBeforeItExpires() throws {
        guard let database = try TestDatabase.make(.postgres) else { return }
        let store = try Self.store(database)
        let handoff = DoorHandoff(identity: .sshKey(fingerprint: Self.fingerprint), name: Self.keyName, match: "duel-1", address: "203.0.113.5")
        let ticket = DoorHandoff.makeTicket()
        #expect(Redirect.isTicket(ticket))
        try store.mint(ticket, for: handoff, expiresWallMs: Self.wall + DoorHandoff.lifetimeMs, nowWallMs: Self.wall)
        #expect(try store.redeem(ticket, match: "duel-2", nowWallMs: Self.wall) == nil, "for another match")
        #expect(try store.redeem(String(repeating: "A", count: 43), match: "duel-1", nowWallMs: Self.wall) == nil, "made up")
        #expect(try store.redeem(ticket, match: "duel-1", nowWallMs: Self.wall + 1) == handoff)
        #expect(try store.redeem(ticket, match: "duel-1", nowWallMs: Self.wall + 2) == nil, "used twice")
    }

    @Test func anExpiredTicketSeatsNobodyAndIsClearedByTheNextMint() throws {
        guard let database = try TestDatabase.make(.postgres) else { return }
        let store = try Self.store(database)
        let guest = DoorHandoff(identity: .guest, name: "guest-7", match: "m", address: "2001:db8::7")
        let ticket = DoorHandoff.makeTicket()
        try store.mint(ticket, for: guest, expiresWallMs: Self.wall + DoorHandoff.lifetimeMs, nowWallMs: Self.wall)
        #expect(try store.redeem(ticket, match: "m", nowWallMs: Self.wall + DoorHandoff.lifetimeMs) == nil, "expired at its instant")
        try store.mint(DoorHandoff.makeTicket(), for: guest, expiresWallMs: Self.wall + 2 * DoorHandoff.lifetimeMs,
                       nowWallMs: Self.wall + DoorHandoff.lifetimeMs)
        #expect(try database.database.query("SELECT ticket FROM handoffs").count == 1, "the expired row went")
    }

    @Test func ticketsAre32RandomBytesInBase64URL() {
        let tickets = (0..<64).map { _ in DoorHandoff.makeTicket() }
        #expect(tickets.allSatisfy(Redirect.isTicket))
        #expect(Swift.Set(tickets).count == tickets.count)
        #expect(Base64URL.encode([0xFB, 0xFF, 0xBF]) == "-_-_" && Base64URL.encode([0x66, 0x6F]) == "Zm8")
    }

    // MARK: Across nodes

    /// Node `name` on the shared store, with a door socket when `door` names one.
    static func node(_ name: String, _ database: TestDatabase, door: String? = nil) throws -> TestServer {
        try TestServer {
            $0.store = .postgres(database.location)
            $0.cluster.node = name
            $0.cluster.advertise = "127.0.0.1:0"
            $0.cluster.wallBaseMs = NodeServerTests.wallBase
            $0.door.socket = door
        }
    }

    static func doorPath() throws -> String {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("handoff-\(UUID().uuidString.prefix(8))").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        return folder + "/door.sock"
    }

    /// A door connection on A that attested `fingerprint` and asked for `match`: the redirect it got.
    static func doorRedirect(_ path: String, match: String, fingerprint: String? = HandoffTicketTests.fingerprint) throws -> Redirect {
        let door = try DoorSocketTests.door(path)
        door.send(.door(DoorAttestation(fingerprint: fingerprint, address: "203.0.113.5")))
        door.send(.join(JoinRequest(name: fingerprint.map { DoorAttestation.name(fingerprint: $0) } ?? "guest-1", match: match)))
        return try NodeServerTests.redirect(door)
    }

    /// A TCP join on `server` carrying `ticket`, under a name the ticket overrides.
    static func ticketJoin(_ server: TestServer, match: String, ticket: String?, name: String = "mallory") throws -> TestClient {
        let client = try NodeServerTests.greeted(server)
        var join = JoinRequest(name: name, match: match)
        join.ticket = ticket
        client.send(.join(join))
        return client
    }

    @Test func aDoorPlayerOnOneNodeIsSeatedOnAnotherUnderTheirKeyOnce() throws {
        guard let database = try TestDatabase.make(.postgres) else { return }
        let path = try Self.doorPath()
        let a = try Self.node("a", database, door: path), b = try Self.node("b", database)
        defer { a.stop(); b.stop() }
        let match = NodeServerTests.matchName(on: "b", among: ["a", "b"])
        let sent = try Self.doorRedirect(path, match: match)
        #expect(sent.address == "127.0.0.1:\(b.port)" && sent.match == match)
        let ticket = try #require(sent.ticket)
        #expect(Redirect.isTicket(ticket))

        let player = try Self.ticketJoin(b, match: match, ticket: ticket)
        #expect(try NodeServerTests.joined(player) == (.player, match, .first))
        let view = try player.waitFor("snapshot") { if case .snapshot(let view) = $0 { view } else { nil } }
        #expect(view.players.first?.name == Self.keyName, "the door's name, not the one the join said")
        let identities = try database.database.query("SELECT identity FROM accounts").map { try $0.text(0) }
        #expect(identities == ["ssh:" + Self.fingerprint], "the key's account, made on B")

        let again = try Self.ticketJoin(b, match: match, ticket: ticket)
        #expect(try again.awaitError(.badTicket).fatal, "used twice")
        #expect(again.drainToEndOfStream() != nil, "and closed")
    }

    @Test func aTicketForAnotherMatchOrMadeUpIsRefused() throws {
        guard let database = try TestDatabase.make(.postgres) else { return }
        let path = try Self.doorPath()
        let a = try Self.node("a", database, door: path), b = try Self.node("b", database)
        defer { a.stop(); b.stop() }
        let match = NodeServerTests.matchName(on: "b", among: ["a", "b"])
        let other = NodeServerTests.matchName(on: "b", among: ["a", "b"], prefix: "x")
        let ticket = try #require(try Self.doorRedirect(path, match: match).ticket)
        #expect(try Self.ticketJoin(b, match: other, ticket: ticket).awaitError(.badTicket).fatal, "another match")
        #expect(try Self.ticketJoin(b, match: match, ticket: String(repeating: "x", count: 43)).awaitError(.badTicket).fatal, "made up")
        // Refused for the wrong match, it still seats its own (nothing was consumed).
        #expect(try NodeServerTests.joined(try Self.ticketJoin(b, match: match, ticket: ticket)) == (.player, match, .first))
    }

    @Test func aDoorBotMatchOnAnotherNodeSeatsThePlayerItsTicketWasWrittenFor() throws {
        guard let database = try TestDatabase.make(.postgres) else { return }
        let path = try Self.doorPath()
        let a = try Self.node("a", database, door: path), b = try Self.node("b", database)
        defer { a.stop(); b.stop() }
        let match = NodeServerTests.matchName(on: "b", among: ["a", "b"], prefix: DoorAttestation.botMatchPrefix + "ab12cd")
        let door = try DoorSocketTests.door(path)
        door.send(.door(DoorAttestation(fingerprint: Self.fingerprint, address: "203.0.113.5", match: match)))
        door.send(.join(JoinRequest(name: Self.keyName, match: match)))
        let ticket = try #require(try NodeServerTests.redirect(door).ticket)
        #expect(try NodeServerTests.joined(try Self.ticketJoin(b, match: match, ticket: ticket)) == (.player, match, .first))
        // Without a ticket, nobody else waits in it.
        _ = try Self.ticketJoin(b, match: match, ticket: nil, name: "eve").awaitError(.matchFull)
    }

    @Test func aTcpJoinCannotClaimADoorIdentityWithoutATicket() throws {
        guard let database = try TestDatabase.make(.postgres) else { return }
        let b = try Self.node("b", database)
        defer { b.stop() }
        let match = NodeServerTests.matchName(on: "b", among: ["b"])
        // The key's door name is kept for the key: a TCP join under it is refused, and a `door`
        // line on TCP is not the door's.
        let client = try Self.ticketJoin(b, match: match, ticket: nil, name: Self.keyName)
        #expect(try client.awaitError(.nameTaken).details["suggestion"] != nil)
        let liar = try NodeServerTests.greeted(b)
        liar.send(.door(DoorAttestation(fingerprint: Self.fingerprint, address: "203.0.113.5")))
        _ = try liar.awaitError(.notADoor)
        #expect(try database.database.query("SELECT identity FROM accounts").isEmpty)
    }
}
