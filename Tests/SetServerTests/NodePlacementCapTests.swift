import Foundation
import SetDatabase
@testable import SetServer
import SetRules
import SetTestSupport
import SetWire
import Testing

/// The cap on the rows a node places in the shared store for one address's new named matches
/// that no player has made yet, over real sockets on two nodes and a throwaway PostgreSQL.
@Suite(.serialized) struct NodePlacementCapTests {
    typealias Nodes = NodeServerTests

    static func node(_ name: String, _ database: TestDatabase, placements: Int? = nil) throws -> TestServer {
        try TestServer {
            $0.store = .postgres(database.location)
            $0.cluster.node = name
            $0.cluster.advertise = "127.0.0.1:0"
            $0.cluster.wallBaseMs = Nodes.wallBase
            $0.perAddress.placements = placements
        }
    }

    /// How a join was answered: sent elsewhere, seated here, or refused.
    enum Answer: Equatable {
        case redirected(String)
        case joined
        case refused(ErrorCode)
    }

    static func answer(_ client: TestClient, joining match: String, id: JSONValue) throws -> Answer {
        client.send(.join(JoinRequest(name: "ann", match: match)), id: id)
        return try client.waitFor("an answer to \(id)") { message -> Answer? in
            switch message {
            case .redirect(let redirect, id?): .redirected(redirect.match)
            case .joined: .joined
            case .error(let error, id?): .refused(error.code)
            default: nil
            }
        }
    }

    static func rows(_ match: String, _ database: TestDatabase) throws -> Int {
        try database.database.query("SELECT node FROM match_homes WHERE match = $1", .text(match)).count
    }

    @Test func anAddressPastItsPlacementsIsRefusedBeforeTheStoreAndAMatchMadeFreesItsShare() throws {
        guard let database = try TestDatabase.make(.postgres) else { return }
        let a = try Self.node("a", database, placements: 2), b = try Self.node("b", database)
        defer { a.stop(); b.stop() }
        let onB = (0..<4).map { Nodes.matchName(on: "b", among: ["a", "b"], prefix: "p\($0)-") }

        let mallory = try TestClient.greeted(a, from: "127.0.0.2")
        #expect(try Self.answer(mallory, joining: onB[0], id: 1) == .redirected(onB[0]))
        #expect(try Self.answer(mallory, joining: onB[1], id: 2) == .redirected(onB[1]))
        #expect(try Self.answer(mallory, joining: onB[2], id: 3) == .refused(.rateLimited))
        let refusal = try #require(mallory.lastLine)
        #expect(refusal.contains("\"message\":\"Your address has 2 new matches placed that no player has started yet"))
        #expect(refusal.contains("\"retryAfterMs\":10000"))
        #expect(try Self.rows(onB[2], database) == 0, "a refused placement writes no row")
        // The same address joining a match no node holds elsewhere is refused too: the store is not asked.
        #expect(try Self.answer(mallory, joining: onB[3], id: 4) == .refused(.rateLimited))
        #expect(try Self.rows(onB[3], database) == 0)

        // Another address is not affected.
        let ann = try TestClient.greeted(a, from: "127.0.0.3")
        #expect(try Self.answer(ann, joining: onB[2], id: 5) == .redirected(onB[2]))

        // A player makes the first placement a match on b: once b has written it and a has asked
        // at its next renewal (well within the placement's lease), the address has a share again.
        let onNodeB = try Nodes.greeted(b)
        #expect(try Self.answer(onNodeB, joining: onB[0], id: 6) == .joined)
        _ = polled({ try? database.database.query("SELECT match FROM match_homes WHERE match = $1 AND placed_until IS NULL", .text(onB[0])).count },
                   until: { $0 == 1 })
        a.advance(by: 2_000)
        let again = polled({ () -> Answer? in try? Self.answer(mallory, joining: onB[3], id: 7) }, until: { $0 != .refused(.rateLimited) })
        #expect(again == .redirected(onB[3]))
        // And no more than the cap again: the second placement still holds its share.
        #expect(try Self.answer(mallory, joining: "another", id: 8) == .refused(.rateLimited))
    }

    @Test func aPlacementNoPlayerMadeFreesItsShareAtItsDeadline() throws {
        guard let database = try TestDatabase.make(.postgres) else { return }
        let a = try Self.node("a", database), b = try Self.node("b", database)
        defer { a.stop(); b.stop() }
        let onB = (0..<10).map { Nodes.matchName(on: "b", among: ["a", "b"], prefix: "q\($0)-") }
        let mallory = try TestClient.greeted(a, from: "127.0.0.2")
        // The default: 8 placements, the 9th refused as Protocol.md shows it.
        for index in 0..<8 { #expect(try Self.answer(mallory, joining: onB[index], id: .int(Int64(index + 1))) == .redirected(onB[index])) }
        #expect(try Self.answer(mallory, joining: onB[8], id: 9) == .refused(.rateLimited))
        #expect(ProtocolDocumentTests.blocks("server").joined().contains(try #require(mallory.lastLine)))
        // b's clock moves too, or a would count it away.
        a.advance(by: 9_999)
        b.advance(by: 9_999)
        #expect(try Self.answer(mallory, joining: onB[8], id: 10) == .refused(.rateLimited))
        #expect(mallory.lastLine?.contains("try again in 1 s.") == true)
        a.advance(by: 1)
        _ = polled({ try? database.database.row("SELECT lease_until FROM nodes WHERE name = 'b'")?.int(0) as Int64? },
                   until: { ($0 ?? 0) > Nodes.wallBase + 11_000 })
        #expect(try Self.answer(mallory, joining: onB[8], id: 11) == .redirected(onB[8]))
        #expect(try Self.answer(mallory, joining: onB[9], id: 12) == .redirected(onB[9]))
    }
}
