import Foundation
import SetDatabase
@testable import SetServer
import SetRules
import SetTestSupport
import SetWire
import Testing

/// Several servers (nodes) on one throwaway PostgreSQL, over real sockets: a join or watch for
/// a match another node holds is redirected there, `list` shows every node's matches, unnamed
/// players arriving at two nodes are paired, a node whose lease lapsed stops serving its matches
/// (and the others say it is away), and a node restarted on its data folder takes its matches back.
@Suite(.serialized) struct NodeServerTests {
    /// Every node's wall clock starts here; each test moves each node's clock on its own.
    static let wallBase: Int64 = 1_800_000_000_000

    static func node(_ name: String, _ database: TestDatabase, data: String? = nil, faults: NodeFaults? = nil) throws -> TestServer {
        try TestServer {
            $0.store = .postgres(database.location)
            $0.cluster.node = name
            $0.cluster.advertise = "127.0.0.1:0"
            $0.cluster.wallBaseMs = wallBase
            $0.cluster.faults = faults
            $0.dataDirectory = data
        }
    }

    /// A match name rendezvous hashing places on `node` among `nodes`.
    static func matchName(on node: String, among nodes: [String], prefix: String = "m") -> String {
        (0...).lazy.map { "\(prefix)\($0)" }.first { Rendezvous.home(of: $0, among: nodes) == node }!
    }

    static func greeted(_ server: TestServer) throws -> TestClient {
        let client = try TestClient(port: server.port)
        _ = try client.waitFor("welcome") { if case .welcome = $0 { true } else { nil } }
        return client
    }

    static func redirect(_ client: TestClient) throws -> Redirect {
        try client.waitFor("redirect") { message -> Redirect? in
            if case .error(let error, _) = message { Issue.record("refused: \(error.message)") }
            if case .redirect(let redirect, _) = message { return redirect }
            return nil
        }
    }

    static func joined(_ client: TestClient) throws -> (Role, String, Seat?) {
        try client.waitFor("joined") { message -> (Role, String, Seat?)? in
            if case .error(let error, _) = message { Issue.record("refused: \(error.message)") }
            if case .joined(let role, let match, _, let seat, _, _, _) = message { return (role, match, seat) }
            return nil
        }
    }

    @Test func aJoinOnANodeForAMatchPlacedOnAnotherIsRedirectedAndFollowingItSeatsThePlayerThere() throws {
        guard let database = try TestDatabase.make(.postgres) else { return }
        let a = try Self.node("a", database), b = try Self.node("b", database)
        defer { a.stop(); b.stop() }
        let match = Self.matchName(on: "b", among: ["a", "b"])

        let ann = try Self.greeted(a)
        ann.send(.join(JoinRequest(name: "ann", match: match)), id: "j")
        let sent = try Self.redirect(ann)
        #expect(sent == Redirect(match: match, address: "127.0.0.1:\(b.port)"))
        #expect(ann.lastLine == "{\"address\":\"127.0.0.1:\(b.port)\",\"id\":\"j\",\"match\":\"\(match)\",\"type\":\"redirect\"}")

        let annOnB = try Self.greeted(b)
        annOnB.send(.join(JoinRequest(name: "ann", match: match)))
        #expect(try Self.joined(annOnB) == (.player, match, .first))

        // The row wins: a second player asking A is sent to B too, and seated beside ann.
        let bob = try Self.greeted(a)
        bob.send(.join(JoinRequest(name: "bob", match: match)))
        #expect(try Self.redirect(bob).address == "127.0.0.1:\(b.port)")
        let bobOnB = try Self.greeted(b)
        bobOnB.send(.join(JoinRequest(name: "bob", match: match)))
        #expect(try Self.joined(bobOnB) == (.player, match, .second))
        _ = try annOnB.awaitEvent("game started") { if case .gameStarted = $0 { true } else { false } }

        // A match placed on A itself is made there, without a redirect.
        let local = Self.matchName(on: "a", among: ["a", "b"])
        let cat = try Self.greeted(a)
        cat.send(.join(JoinRequest(name: "cat", match: local)))
        #expect(try Self.joined(cat) == (.player, local, .first))
    }

    @Test func aWatcherOnANodeIsRedirectedToTheNodeOfTheMatch() throws {
        guard let database = try TestDatabase.make(.postgres) else { return }
        let a = try Self.node("a", database), b = try Self.node("b", database)
        defer { a.stop(); b.stop() }
        let match = Self.matchName(on: "b", among: ["a", "b"])
        let ann = try Self.greeted(b)
        ann.send(.join(JoinRequest(name: "ann", match: match)))
        _ = try Self.joined(ann)

        let eve = try Self.greeted(a)
        eve.send(.join(JoinRequest(role: .spectator, name: "eve", match: match)))
        #expect(try Self.redirect(eve) == Redirect(match: match, address: "127.0.0.1:\(b.port)"))
        let eveOnB = try Self.greeted(b)
        eveOnB.send(.join(JoinRequest(role: .spectator, name: "eve", match: match)))
        #expect(try Self.joined(eveOnB) == (.spectator, match, nil))

        // A match no node holds is still no such match.
        let nobody = try Self.greeted(a)
        nobody.send(.join(JoinRequest(role: .spectator, name: "eve", match: "nowhere")))
        _ = try nobody.awaitError(.noSuchMatch)
    }

    @Test func aListOnOneNodeShowsAnotherNodesMatchWithItsAddress() throws {
        guard let database = try TestDatabase.make(.postgres) else { return }
        let a = try Self.node("a", database), b = try Self.node("b", database)
        defer { a.stop(); b.stop() }
        let onB = Self.matchName(on: "b", among: ["a", "b"]), onA = Self.matchName(on: "a", among: ["a", "b"])
        let ann = try Self.greeted(b)
        ann.send(.join(JoinRequest(name: "ann", match: onB)))
        _ = try Self.joined(ann)
        let cat = try Self.greeted(a)
        cat.send(.join(JoinRequest(name: "cat", match: onA)))
        _ = try Self.joined(cat)
        // B writes its match's listing (ann seated) once it has seated her.
        _ = polled({ try? database.database.row("SELECT players FROM match_homes WHERE match = $1", .text(onB))?.text(0) },
                   until: { $0?.contains("ann") == true })

        let lister = try Self.greeted(a)
        lister.send(.list(after: nil, limit: nil), id: "l")
        let listings = try lister.waitFor("matches") { if case .matches(let list, _, _) = $0 { list } else { nil } }
        let elsewhere = try #require(listings.first { $0.name == onB })
        #expect(elsewhere.address == "127.0.0.1:\(b.port)")
        #expect(elsewhere.players.map(\.name) == ["ann"])
        #expect(elsewhere.phase == .waiting)
        let here = try #require(listings.first { $0.name == onA })
        #expect(here.address == nil)
        #expect(here.players.map(\.name) == ["cat"])
    }

    @Test func twoUnnamedPlayersArrivingAtTwoNodesArePaired() throws {
        guard let database = try TestDatabase.make(.postgres) else { return }
        let a = try Self.node("a", database), b = try Self.node("b", database)
        defer { a.stop(); b.stop() }
        let ann = try Self.greeted(a)
        ann.send(.join(JoinRequest(name: "ann")))
        let (_, duel, _) = try Self.joined(ann)
        #expect(duel == "duel-a-1")
        _ = polled({ try? database.database.row("SELECT node FROM waiting WHERE match = $1", .text(duel))?.text(0) },
                   until: { $0 == "a" })

        let bob = try Self.greeted(b)
        bob.send(.join(JoinRequest(name: "bob")))
        #expect(try Self.redirect(bob) == Redirect(match: duel, address: "127.0.0.1:\(a.port)"))
        let bobOnA = try Self.greeted(a)
        bobOnA.send(.join(JoinRequest(name: "bob")))
        #expect(try Self.joined(bobOnA) == (.player, duel, .second))
        _ = try ann.awaitEvent("game started") { if case .gameStarted = $0 { true } else { false } }
        // Paired: it waits no more.
        _ = polled({ try? database.database.query("SELECT match FROM waiting").count }, until: { $0 == 0 })
    }

    @Test func aStoppingNodeTakesItsWaitingDuelOutOfTheStore() throws {
        guard let database = try TestDatabase.make(.postgres) else { return }
        let a = try Self.node("a", database)
        let ann = try Self.greeted(a)
        ann.send(.join(JoinRequest(name: "ann")))
        _ = try Self.joined(ann)
        _ = polled({ try? database.database.query("SELECT match FROM waiting WHERE node = 'a'").count }, until: { $0 == 1 })
        a.stop()
        #expect(try database.database.query("SELECT match FROM waiting").count == 0)
    }

    @Test func aSeatTokenForAMatchNoNodeHoldsPlacesNothing() throws {
        guard let database = try TestDatabase.make(.postgres) else { return }
        let a = try Self.node("a", database)
        defer { a.stop() }
        let ann = try Self.greeted(a)
        ann.send(.join(JoinRequest(name: "ann", match: "nowhere", token: "0123456789abcdef0123456789abcdef")))
        _ = try ann.awaitError(.badToken)
        #expect(try database.database.query("SELECT node FROM match_homes WHERE match = 'nowhere'").isEmpty)
    }
}
