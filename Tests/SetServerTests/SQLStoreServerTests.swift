import Foundation
@testable import SetServer
import SetTestSupport
import SetWire
import Testing

/// The server keeps its accounts in the SQLite file of its data folder, by default (`serve
/// --data DIR`) as when `--store` names it: a rated duel's ratings are in the file, and outlive
/// a restart.
@Suite(.serialized) struct SQLStoreServerTests {
    @Test(arguments: [false, true]) func aRatedDuelOnTheSQLiteStoreOutlivesARestart(storeNamed: Bool) throws {
        let data = NSTemporaryDirectory() + "setgame-sql-server-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: data + "/accounts", withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: data) }
        let file = data + "/accounts/" + StoreLocation.sqliteFileName
        func server() throws -> TestServer {
            try TestServer {
                $0.dataDirectory = data
                $0.store = storeNamed ? .sqliteFile(file) : nil
            }
        }
        var first: TestServer? = try server()
        func join(_ server: TestServer, _ name: String, key: String?, match: String) throws -> TestClient {
            let client = try TestClient(port: server.port)
            _ = try client.waitFor("welcome") { if case .welcome = $0 { true } else { nil } }
            var request = JoinRequest(name: name, match: match)
            request.account = key
            client.send(.join(request))
            _ = try client.waitFor("snapshot") { if case .snapshot = $0 { true } else { nil } }
            return client
        }
        let ann = try join(first!, "ann", key: AccountsEdgeTests.annKey, match: "m")
        let bob = try join(first!, "bob", key: AccountsEdgeTests.bobKey, match: "m")
        try ann.awaitSeq(bob.view!.seq)
        try playScriptedTurn(ann, bob)
        ann.send(.act(.resign, seat: nil))
        let over = try bob.awaitEvent("game over") { if case .gameOver = $0 { true } else { false } }
        guard case .gameOver(_, _, let ratings) = over.body else { return }
        #expect(ratings.count == 2)
        #expect(try dataFolderAccounts(data).query("SELECT name FROM accounts ORDER BY id", []).map { try $0.text(0) } == ["ann", "bob"])
        withExtendedLifetime((ann, bob)) { first?.stop() }
        first = nil

        let second = try server()
        defer { second.stop() }
        let eve = try join(second, "eve", key: nil, match: "other")
        eve.send(.account(.profile(name: "bob")), id: "q")
        let profile = try eve.waitFor("profile") { if case .accountInfo(let info, _) = $0 { info } else { nil } }
        #expect(profile.fields["wins"]?.intValue == 1)
        let bobAfter = try #require(ratings.first { $0.seat == .second }).after
        #expect(profile.fields["ratings"]?.objectValue?["classic"]?.objectValue?["rating"]?.intValue.map(Int.init) == bobAfter)
        #expect(try FileManager.default.contentsOfDirectory(atPath: data + "/accounts").allSatisfy { $0.hasPrefix(StoreLocation.sqliteFileName) })
    }
}
