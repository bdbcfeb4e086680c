import Foundation
import SetDatabase
@testable import SetServer
import SetTestSupport
import SetWire
import Testing

/// Errors keep their kind (issue 42 item 13): a record the store refuses for good (a table an
/// operator dropped, on a real SQLite file and a real PostgreSQL) is not retried forever behind
/// the match: the game over is told unrated, the operator's log says why, and the match goes on.
@Suite(.serialized) struct StoreRefusalTests {
    static let annKey = String(repeating: "a1", count: 32)
    static let bobKey = String(repeating: "b2", count: 32)

    @Test(arguments: TestStoreKind.allCases)
    func aRecordTheStoreRefusesIsToldUnratedAndTheMatchGoesOn(kind: TestStoreKind) throws {
        guard let database = try TestDatabase.make(kind) else { return }
        let location: StoreLocation = kind == .sqlite ? .sqliteFile(database.location) : .postgres(database.location)
        let server = try TestServer { $0.store = location }
        defer { server.stop() }
        let ann = try TestClient.joined(port: server.port, name: "ann", key: Self.annKey)
        let bob = try TestClient.joined(port: server.port, name: "bob", key: Self.bobKey)
        try ann.awaitSeq(bob.view!.seq)
        try playScriptedTurn(ann, bob)

        // The seats' table is gone: every insert of a game's seats is refused, however often tried.
        try database.database.execute("DROP TABLE game_seats")
        ann.send(.act(.resign, seat: nil))
        for client in [ann, bob] {
            let over = try client.awaitEvent("game over") { if case .gameOver = $0 { true } else { false } }
            guard case .gameOver(_, _, let ratings) = over.body else { return }
            #expect(ratings.isEmpty, "unrated: nothing was recorded")
        }
        #expect(server.logLines.all.contains { $0.contains("refused the record of") && $0.contains("game_seats") })
        // The match goes on: both ask for a rematch, and its second game begins.
        for client in [ann, bob] { client.send(.act(.rematch, seat: nil)) }
        let started = try bob.awaitEvent("the second game") { if case .gameStarted = $0 { true } else { false } }
        guard case .gameStarted(let start) = started.body else { return }
        #expect(start.game == 2)
    }
}
