import Foundation
import SetNet
import SetRules
import SetServer
import SetWire
import Testing

/// A guest may play under a name no account owns yet; nobody takes a seat under a name another
/// player sits under in that match (a guest, or an account), so no scoreboard shows one name twice.
@Suite(.serialized) struct GuestNameTests {
    static let annKey = String(repeating: "a1", count: 32)
    static let bobKey = String(repeating: "b2", count: 32)

    func join(_ client: TestClient, _ name: String, key: String?, match: String?) throws -> WireError? {
        var request = JoinRequest(name: name, match: match)
        request.account = key
        return try client.joinOutcome(request)
    }

    /// The match a client was seated in, from the snapshot that follows its `joined`.
    func seatedMatch(_ client: TestClient) throws -> String {
        try client.waitFor("snapshot") { if case .snapshot(let view) = $0 { view.match } else { nil } }
    }

    @Test func twoGuestsMayNotShareANameInOneMatchButItsOwnSeatComesBackUnderIt() throws {
        let server = try TestServer()
        defer { server.stop() }
        let bob = try TestClient.greeted(server)
        #expect(try join(bob, "bob", key: nil, match: "m") == nil)
        let other = try TestClient.greeted(server)
        let refused = try #require(try join(other, "BOB", key: nil, match: "m"))
        #expect(refused.code == .nameTaken && !refused.fatal)
        #expect(refused.details["suggestion"] == .string("BOB2"))
        #expect(try join(other, "BOB2", key: nil, match: "m") == nil, "the suggestion is free")
        // Elsewhere the name is anyone's.
        let elsewhere = try TestClient.greeted(server)
        #expect(try join(elsewhere, "Bob", key: nil, match: "x") == nil)

        // The seat's own player, back on another connection with its token, keeps its name.
        let token = try #require(bob.token)
        let back = try TestClient.greeted(server)
        #expect(try back.joinOutcome(JoinRequest(name: "bob", token: token, takeOver: true)) == nil)
        #expect(back.seat == bob.seat)
        withExtendedLifetime((bob, other, elsewhere)) {}
    }

    @Test func aGuestIsNotPairedIntoTheDuelOfAGuestOfItsName() throws {
        let server = try TestServer()
        defer { server.stop() }
        let waiting = try TestClient.greeted(server)
        #expect(try join(waiting, "bob", key: nil, match: nil) == nil)
        let open = try seatedMatch(waiting)
        let newcomer = try TestClient.greeted(server)
        let refused = try #require(try join(newcomer, "Bob", key: nil, match: nil))
        #expect(refused.code == .nameTaken && refused.details["suggestion"] == .string("Bob2"))
        #expect(try join(newcomer, "Bob2", key: nil, match: nil) == nil)
        #expect(try seatedMatch(newcomer) == open, "paired into the waiting duel under the suggested name")
        withExtendedLifetime(waiting) {}
    }

    @Test func aNameAnAccountSitsUnderIsNotFreeInThatMatchAfterItsOwnerTookAnother() throws {
        let server = try TestServer()
        defer { server.stop() }
        let ann = try TestClient.greeted(server)
        #expect(try join(ann, "ann", key: Self.annKey, match: "m") == nil)
        // The same account takes another name elsewhere: "ann" belongs to nobody now, but the
        // scoreboard of "m" still shows it.
        let renamed = try TestClient.greeted(server)
        #expect(try join(renamed, "anna", key: Self.annKey, match: "x") == nil)

        let guest = try TestClient.greeted(server)
        let refused = try #require(try join(guest, "Ann", key: nil, match: "m"))
        #expect(refused.code == .nameTaken && refused.details["suggestion"] == .string("Ann2"))
        let account = try TestClient.greeted(server)
        #expect(try join(account, "ann", key: Self.bobKey, match: "m")?.code == .nameTaken)
        #expect(try join(account, "ann", key: Self.bobKey, match: "y") == nil, "elsewhere the free name is taken as usual")
        withExtendedLifetime((ann, renamed, guest)) {}
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

    /// `setgame play`'s kind of match: the first join with a reserved token takes a seat as any
    /// new seat is taken, under a name that is free to it, as the account its key speaks for.
    @Test func aReservedTokensFirstSeatIsTakenUnderAFreeNameAsItsAccount() throws {
        let (first, second) = ("0123456789abcdef0123456789abcdef", "fedcba9876543210fedcba9876543210")
        let server = try TestServer { $0.reservedMatches["private"] = ReservedMatch(tokens: [first, second], mode: .duel) }
        defer { server.stop() }
        let owner = try TestClient.greeted(server)
        #expect(try join(owner, "ann", key: Self.annKey, match: "x") == nil)

        // As a resume does, the join sends its token and no match.
        let guest = try TestClient.greeted(server)
        let refused = try #require(try guest.joinOutcome(JoinRequest(name: "ANN", token: first)))
        #expect(refused.code == .nameTaken && refused.details["suggestion"] == .string("ANN2"))
        #expect(try guest.joinOutcome(JoinRequest(name: "cy", token: first)) == nil, "the refused join left the token unused")
        #expect(guest.token == first)

        let player = try TestClient.greeted(server)
        #expect(try player.joinOutcome(JoinRequest(name: "Cy", token: second))?.code == .nameTaken, "a guest sits under it")
        var request = JoinRequest(name: "dee", token: second)
        request.account = Self.bobKey
        #expect(try player.joinOutcome(request) == nil)
        let view = try player.waitFor("snapshot") { if case .snapshot(let view) = $0 { view } else { nil } }
        #expect(view.match == "private")
        #expect(view.players.first { $0.name == "dee" }?.rating == 1500, "the seat is its account's")
        withExtendedLifetime(owner) {}
    }
}
