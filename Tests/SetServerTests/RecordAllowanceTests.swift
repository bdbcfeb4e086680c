import Foundation
import SetRules
@testable import SetServer
import SetWire
import Testing

/// Issue 32 item 6: what an address, its network and an account may write to the accounts log.
@Suite struct RecordAllowanceTests {
    let start = Instant(milliseconds: 1_000)

    @Test func anAddressMakesItsBurstOfAccountsThenOneAMinute() {
        var allowance = RecordAllowance(limits: RecordLimits())
        for _ in 0..<20 { #expect(allowance.allow(.create, from: "10.0.0.1", at: start) == nil) }
        #expect(allowance.allow(.create, from: "10.0.0.1", at: start) == 60_000)
        #expect(allowance.allow(.create, from: "10.0.0.1", at: start.adding(59_000)) == 1_000)
        #expect(allowance.allow(.create, from: "10.0.0.1", at: start.adding(60_000)) == nil)
        #expect(allowance.allow(.create, from: "10.0.0.1", at: start.adding(60_000)) == 60_000)
        #expect(allowance.allow(.create, from: "10.0.1.1", at: start) == nil, "another network's address is not held up")
    }

    /// Sixteen addresses of one /24 share the network's allowance.
    @Test func oneNetworkSharesItsAllowance() {
        var allowance = RecordAllowance(limits: RecordLimits())
        var made = 0
        for host in 1...16 {
            for _ in 0..<20 where allowance.allow(.create, from: "192.0.2.\(host)", at: start) == nil { made += 1 }
        }
        #expect(made == 40)
        #expect(RecordAllowance.network(of: "192.0.2.77") == "192.0.2")
        #expect(RecordAllowance.network(of: "2001:db8:1:2::5") == "2001:db8:1")
    }

    /// A refusal spends nothing: the address's bucket is untouched when the account's is empty.
    @Test func renamesAreCountedPerAccountAndPerAddressAndARefusalSpendsNothing() {
        var allowance = RecordAllowance(limits: RecordLimits())
        for _ in 0..<5 { #expect(allowance.allow(.rename(account: 7), from: "10.0.0.1", at: start) == nil) }
        for _ in 0..<10 { #expect(allowance.allow(.rename(account: 7), from: "10.0.0.1", at: start) == 60_000) }
        for account in 8..<23 { #expect(allowance.allow(.rename(account: account), from: "10.0.0.1", at: start) == nil) }
        #expect(allowance.allow(.rename(account: 30), from: "10.0.0.1", at: start) == 60_000, "the address's twenty are spent")
        #expect(allowance.allow(.rename(account: 30), from: "10.0.0.2", at: start) == nil)
    }

    /// The issue's flood through a real server: one address's keys past its burst are refused
    /// with `account_limit` and `retryAfterMs`, nothing is written for them, and the server's
    /// clock (not the wall) lets the next one through a minute later.
    @Test func aFloodOfNewAccountsIsRefusedAndWritesNothing() throws {
        let data = NSTemporaryDirectory() + "setgame-record-allowance-\(UUID().uuidString)"
        let server = try TestServer { $0.dataDirectory = data }
        defer { server.stop() }
        func join(_ number: Int, name: String? = nil) throws -> TestClient {
            let client = try TestClient(port: server.port)
            _ = try client.waitFor("welcome") { if case .welcome = $0 { true } else { nil } }
            var request = JoinRequest(name: name ?? "p\(number)", match: "m\(number)")
            request.account = String(format: "%064x", number)
            client.send(.join(request))
            return client
        }
        for number in 0..<20 {
            _ = try join(number).waitFor("snapshot") { if case .snapshot = $0 { true } else { nil } }
        }
        let accounts = try accountRows(data)
        #expect(accounts.count == 20)
        let refused = try join(20).awaitError(.accountLimit)
        #expect(refused.details["retryAfterMs"] == .int(60_000) && !refused.fatal, "\(refused)")
        #expect(try accountRows(data) == accounts, "a refusal writes nothing")
        // Renames: five for one account, then refused.
        for round in 1...5 {
            _ = try join(0, name: "p0-\(round)").waitFor("snapshot") { if case .snapshot = $0 { true } else { nil } }
        }
        #expect(try join(0, name: "p0-6").awaitError(.accountLimit).details["retryAfterMs"] == .int(60_000))
        server.advance(by: 60_000)
        _ = try join(20).waitFor("snapshot") { if case .snapshot = $0 { true } else { nil } }
    }

    /// A rename through the lobby or an arena is a record kept for good, as a seat's is: it spends
    /// the same ration (five for one account, then one a minute), whichever way it comes.
    @Test func renamesThroughTheLobbyAndAnArenaSpendTheJoinsRation() throws {
        let server = try TestServer()
        defer { server.stop() }
        let key = String(format: "%064x", 7)
        func lobby(_ name: String) throws -> ServerMessage {
            let client = try TestClient.greeted(port: server.port)
            var join = JoinRequest(name: name)
            join.account = key
            client.send(.lobby(.enter(join)), id: "l")
            return try client.waitFor("the lobby's answer") { message in
                switch message {
                case .lobby(_, .string("l")?), .error(_, .string("l")?): message
                default: nil
                }
            }
        }
        // Made, then renamed three times through the lobby.
        for name in ["ann", "ann1", "ann2", "ann3"] {
            guard case .lobby = try lobby(name) else { Issue.record("\(name) was refused"); return }
        }
        // Then through arenas (one entry an account in each): its fourth and fifth renames pass,
        // its sixth does not.
        func arena(_ arena: String, _ name: String) throws -> ServerMessage {
            try ArenaRoomTests.create(server, arena)
            return try ArenaRequestTests.answer(try TestClient.greeted(port: server.port),
                                                .join(ArenaJoinRequest(arena: arena, name: name, account: key)), id: name)
        }
        for (place, name) in [("friday", "ann4"), ("saturday", "ann5")] {
            guard case .arena = try arena(place, name) else { Issue.record("\(name) was refused"); return }
        }
        guard case .error(let overArena, _) = try arena("sunday", "ann6") else { Issue.record("a sixth rename passed through an arena"); return }
        #expect(overArena.code == .accountLimit && overArena.details["retryAfterMs"] == .int(60_000))
        guard case .error(let limited, _) = try lobby("ann6") else { Issue.record("a sixth rename passed through the lobby"); return }
        #expect(limited.code == .accountLimit)
        server.advance(by: 60_000)
        guard case .lobby = try lobby("ann6") else { Issue.record("refused after a minute"); return }
    }

    /// A join refused for another reason (the match is full) writes nothing and so spends none
    /// of its address's allowance: twenty refusals later, twenty new accounts still pass.
    @Test func aJoinRefusedForAnotherReasonCostsNothing() throws {
        let server = try TestServer()
        defer { server.stop() }
        let seated = try TestClient.duel(server, match: "full")
        func join(_ number: Int, match: String) throws -> TestClient {
            let client = try TestClient(port: server.port)
            _ = try client.waitFor("welcome") { if case .welcome = $0 { true } else { nil } }
            var request = JoinRequest(name: "p\(number)", match: match)
            request.account = String(format: "%064x", number)
            client.send(.join(request))
            return client
        }
        for number in 0..<20 { _ = try join(number, match: "full").awaitError(.matchFull) }
        for number in 20..<40 {
            _ = try join(number, match: "m\(number)").waitFor("snapshot") { if case .snapshot = $0 { true } else { nil } }
        }
        _ = try join(40, match: "m40").awaitError(.accountLimit)
        withExtendedLifetime(seated) {}
    }
}
