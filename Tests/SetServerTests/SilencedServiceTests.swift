import Foundation
import SetDatabase
@testable import SetServer
import SetRules
import SetTestSupport
import SetWire
import Testing

/// The silenced list is the service's (issue 42 item 2): node a puts its old `silenced` file in
/// the store once, node b silences by it within a poll, and `setgame nodes unsilence` lifts it on
/// every node. Real nodes on one real PostgreSQL.
@Suite(.serialized) struct SilencedServiceTests {
    typealias Nodes = NodeServerTests

    /// Says distinct lines through `client`, moving `node`'s clock a poll on each time, until one
    /// is answered as `wanted` (nil: said); whether it was within 30 s (only a broken server
    /// takes that long: the store answers a poll in milliseconds).
    static func sayUntil(_ client: TestClient, on node: TestServer, _ wanted: ErrorCode?) throws -> Bool {
        let deadline = Date().addingTimeInterval(30)
        var attempt = 0
        while Date() < deadline {
            attempt += 1
            node.advance(by: SilencedStore.pollMs)
            if try client.say("line \(attempt) \(UUID().uuidString.prefix(6))")?.code == wanted { return true }
        }
        return false
    }

    @Test func aFileImportedThroughOneNodeSilencesOnAnotherAndTheRosterLiftsIt() throws {
        guard let database = try TestDatabase.make(.postgres) else { return }
        let data = NSTemporaryDirectory() + "setgame-silenced-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: data, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: data) }
        try "# noisy\naddress 127.0.0.1\nnonsense\n".write(toFile: data + "/silenced", atomically: true, encoding: .utf8)
        let b = try Nodes.node("b", database)
        defer { b.stop() }
        let match = Nodes.matchName(on: "b", among: ["b"])
        let ann = try Nodes.greeted(b), bob = try Nodes.greeted(b)
        ann.send(.join(JoinRequest(name: "ann", match: match)))
        _ = try Nodes.joined(ann)
        bob.send(.join(JoinRequest(name: "bob", match: match)))
        _ = try Nodes.joined(bob)
        #expect(try ann.say("before") == nil, "nobody is silenced yet")

        // Node a starts on the folder with the file: it puts it in the store, and renames it.
        let a = try Nodes.node("a", database, data: data)
        defer { a.stop() }
        #expect(try Self.sayUntil(ann, on: b, .chatSilenced), "b silences by the list a put in the store")
        // a renames its file once the store answered it, which b may have read a moment before.
        let renamed = { FileManager.default.fileExists(atPath: data + "/silenced.imported") && !FileManager.default.fileExists(atPath: data + "/silenced") }
        let deadline = Date().addingTimeInterval(30)
        while !renamed() && Date() < deadline { Thread.sleep(forTimeInterval: 0.02) }
        #expect(renamed())
        #expect(try NodeRosterTests.roster(database).silenced() == ["address 127.0.0.1"])

        #expect(try NodeRosterTests.roster(database).silence("address   127.0.0.1", false))
        #expect(try Self.sayUntil(ann, on: b, nil), "lifted on b without a restart")
        withExtendedLifetime(bob) {}
    }
}
