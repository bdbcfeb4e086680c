import Foundation
import SetDatabase
@testable import SetServer
import SetTestSupport
import SetWire
import Testing

/// A name drawn like another account's (`aIice` beside `alice`: a capital I for the small L) is
/// not free, on a real SQLite file and a real PostgreSQL, and over a real socket.
@Suite struct LookAlikeNamesTests {
    @Test(arguments: TestStoreKind.allCases)
    func aNameDrawnLikeAnOwnedOneIsTaken(kind: TestStoreKind) throws {
        guard let subject = try StoreUnderTest.make(kind) else { return }
        let store = subject.store
        let alice = try store.create(.accountKey(digest: "a"), name: "alice", bot: false, wallSeconds: 1)
        for name in ["aIice", "a|ice", "a\u{FF29}ice"] {
            #expect(throws: StoreError.nameTaken, "\(name)") { try store.create(.accountKey(digest: "b"), name: name, bot: false, wallSeconds: 1) }
            #expect(try store.account(lookingLike: name)?.id == alice.id, "\(name)")
        }
        #expect(try store.account(lookingLike: "alice") == nil, "an owner's own name is no look-alike of itself")
        // A dotted i is drawn as itself.
        let other = try store.create(.accountKey(digest: "b"), name: "aiice", bot: false, wallSeconds: 1)
        #expect(throws: StoreError.nameTaken) { try store.rename(other.id, to: "aIice") }

        // `Ian` and `lan`: the owner may take the look-alike of its own name; its old spelling is
        // then another's look-alike.
        let ian = try store.create(.accountKey(digest: "c"), name: "Ian", bot: false, wallSeconds: 1)
        #expect(throws: StoreError.nameTaken) { try store.create(.accountKey(digest: "d"), name: "lan", bot: false, wallSeconds: 1) }
        #expect(try store.rename(ian.id, to: "lan").name == "lan")
        #expect(throws: StoreError.nameTaken) { try store.create(.accountKey(digest: "d"), name: "Ian", bot: false, wallSeconds: 1) }
        // Case folded, as ever: `McIntosh` and `mcintosh` are one name, `mclntosh` another.
        _ = try store.create(.accountKey(digest: "e"), name: "McIntosh", bot: false, wallSeconds: 1)
        #expect(throws: StoreError.nameTaken) { try store.create(.accountKey(digest: "f"), name: "mcintosh", bot: false, wallSeconds: 1) }
        #expect(try store.create(.accountKey(digest: "f"), name: "mclntosh", bot: false, wallSeconds: 1).name == "mclntosh")
    }

    /// The lookup goes down the index the migration made, not through every account.
    @Test(arguments: TestStoreKind.allCases)
    func aNamesLookAlikesAreFoundByTheIndex(kind: TestStoreKind) throws {
        guard let subject = try StoreUnderTest.make(kind) else { return }
        let database = subject.database.database
        let query = "SELECT id, name FROM accounts WHERE \(LookAlikeNames.keyExpression) = $1"
        let plan: String
        switch kind {
        case .sqlite:
            plan = try database.query("EXPLAIN QUERY PLAN " + query, .text("aiice")).map { try $0.text(3) }.joined(separator: "\n")
        case .postgres:
            // A table this small is read whole unless the planner is told not to.
            try database.execute("SET enable_seqscan = off")
            defer { try? database.execute("RESET enable_seqscan") }
            plan = try database.query("EXPLAIN " + query, .text("aiice")).map { try $0.text(0) }.joined(separator: "\n")
        }
        #expect(plan.contains("accounts_look_alike"), "\(plan)")
    }

    @Test func aJoinUnderANameDrawnLikeAnOwnedOneIsRefusedWithAFreeOne() throws {
        let server = try TestServer()
        defer { server.stop() }
        let alice = try TestClient.greeted(server)
        var request = JoinRequest(name: "alice", match: "a")
        request.account = IdentityTests.annKey
        #expect(try alice.joinOutcome(request) == nil)
        for key in [IdentityTests.bobKey, nil] {
            let other = try TestClient.greeted(server)
            var impostor = JoinRequest(name: "aIice", match: "b")
            impostor.account = key
            let refused = try other.joinOutcome(impostor)
            #expect(refused?.code == .nameTaken, "\(key ?? "a guest")")
            #expect(refused?.message.contains("looks like \"alice\"") == true, "\(refused?.message ?? "")")
            guard case .string(let suggestion)? = refused?.details["suggestion"] else { return #expect(Bool(false), "a suggestion") }
            #expect(!PlayerName.drawnAlike(suggestion, "alice") && PlayerName.skeleton(suggestion) != "alice", "\(suggestion)")
            impostor.name = suggestion
            #expect(try other.joinOutcome(impostor) == nil, "the suggestion is free: \(suggestion)")
        }
        withExtendedLifetime(alice) {}
    }
}
