import Foundation
import SetNet
import SetRules
import SetServer
import SetWire
import Testing

/// A guest may play under a name no account owns yet; an account never sits beside such a guest
/// under that name, so no match shows a guest and an account with one name.
@Suite(.serialized) struct GuestNameTests {
    static let annKey = String(repeating: "a1", count: 32)
    static let bobKey = String(repeating: "b2", count: 32)

    func join(_ client: TestClient, _ name: String, key: String?, match: String) throws -> WireError? {
        var request = JoinRequest(name: name, match: match)
        request.account = key
        return try client.joinOutcome(request)
    }

    @Test func anAccountMayNotTakeTheNameOfAGuestSeatedInTheMatchItJoinsButMayElsewhere() throws {
        let server = try TestServer()
        defer { server.stop() }
        let guest = try TestClient.greeted(server)
        #expect(try join(guest, "ann", key: nil, match: "m") == nil)

        // A new account, and an existing one asking for the name: both are refused in that match.
        let newcomer = try TestClient.greeted(server)
        let refused = try #require(try join(newcomer, "ANN", key: Self.annKey, match: "m"))
        #expect(refused.code == .nameTaken && !refused.fatal)
        #expect(refused.details["suggestion"] == .string("ANN2"))
        let existing = try TestClient.greeted(server)
        #expect(try join(existing, "bob", key: Self.bobKey, match: "x") == nil)
        let renaming = try TestClient.greeted(server)
        #expect(try join(renaming, "ann", key: Self.bobKey, match: "m")?.code == .nameTaken)
        let probe = try TestClient.greeted(server)
        probe.send(.account(.profile(name: "ann")), id: "p")
        #expect(try probe.awaitError(.noSuchPlayer).code == .noSuchPlayer, "the refused join made no account")
        probe.send(.account(.profile(name: "bob")), id: "q")
        _ = try probe.waitFor("bob's profile, not renamed") { if case .accountInfo(let info, _) = $0 { info.fields["name"] == .string("bob") ? true : nil } else { nil } }

        // The account takes the name in another match; the seat beside the guest under another.
        #expect(try join(newcomer, "ann", key: Self.annKey, match: "elsewhere") == nil)
        let third = try TestClient.greeted(server)
        #expect(try join(third, "cy", key: nil, match: "m") == nil)
        withExtendedLifetime((guest, existing, renaming)) {}
    }
}
