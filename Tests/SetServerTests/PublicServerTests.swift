import Foundation
import Glibc
import SetNet
import SetRules
import SetServer
import SetWire
import SetTestSupport
import Testing

/// A loopback socket from a chosen source address (any 127.x.y.z reaches the server), so a test
/// can play several client addresses at once.
func loopbackSocket(from source: String, to port: UInt16) throws -> Int32 {
    let fd = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
    guard fd >= 0 else { throw SystemCallError("socket") }
    var local = try Sockets.ipv4Address(host: source, port: 0)
    let bound = withUnsafePointer(to: &local) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
    }
    var remote = try Sockets.ipv4Address(host: "127.0.0.1", port: port)
    let connected = withUnsafePointer(to: &remote) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
    }
    guard bound == 0, connected == 0 else {
        let error = SystemCallError(bound == 0 ? "connect" : "bind \(source)")
        Glibc.close(fd)
        throw error
    }
    return fd
}

extension TestClient {
    /// Connected from `source`, welcome read.
    static func greeted(_ server: TestServer, from source: String = "127.0.0.1") throws -> TestClient {
        let client = TestClient(connectedSocket: try loopbackSocket(from: source, to: server.port))
        _ = try client.waitFor("welcome") { if case .welcome = $0 { true } else { nil } }
        return client
    }

    /// Sends a join and returns the error it got, or nil if it was seated.
    func joinOutcome(_ request: JoinRequest) throws -> WireError? {
        send(.join(request))
        return try waitFor("joined or an error") { message -> WireError?? in
            switch message {
            case .joined: .some(nil)
            case .error(let error, _): .some(error)
            default: nil
            }
        }
    }

    func list(after: String? = nil, limit: Int? = nil) throws -> (listings: [MatchListing], next: String?, bytes: Int) {
        send(.list(after: after, limit: limit))
        let (listings, next) = try waitFor("matches") { if case .matches(let list, let next, _) = $0 { (list, next) } else { nil } }
        return (listings, next, (lastLine ?? "").utf8.count + 1)
    }
}

/// Issue 11 #1 and #2, issue 16 #7: a single client cannot crowd others out of the lobby.
@Suite(.serialized) struct PublicLobbyTests {
    func temporaryDirectory() -> String { temporaryFolder("setgame-public") }

    /// Leaves a solo game with one move behind: it is worth keeping, so it stays while its seat waits.
    func leaveASoloGame(_ server: TestServer, named name: String, from source: String = "127.0.0.1") throws {
        let client = try TestClient.greeted(server, from: source)
        client.send(.join(JoinRequest(name: "p", match: name, mode: .solo)))
        _ = try client.waitFor("snapshot") { if case .snapshot = $0 { true } else { nil } }
        client.send(.act(.select(client.view!.table[0]), seat: nil))
        _ = try client.awaitEvent("the move") { if case .rules(.selectionChanged) = $0 { true } else { false } }
    }

    @Test func theListIsPagedWithACursorAndEveryPageIsBounded() throws {
        let server = try TestServer {
            $0.perAddress.matches = 1_000
            $0.perAddress.unattended = 1_000
        }
        defer { server.stop() }
        for index in 0..<300 { try leaveASoloGame(server, named: "solo-\(index)") }
        // A duel with a spectator, and one waiting for a player.
        let ann = try TestClient.joined(server, name: "ann", match: "live")
        _ = try TestClient.joined(server, name: "bob", match: "live")
        let eve = try TestClient.joined(server, name: "eve", match: "live", role: .spectator)
        let cat = try TestClient.joined(server, name: "cat", match: "open")
        _ = (ann, eve, cat)

        let probe = try TestClient.greeted(server)
        let first = try probe.list()
        #expect(first.listings.count == ClientMessageDecoder.defaultListLimit)
        #expect(first.listings.prefix(2).map(\.name) == ["live", "open"], "live duels with spectators first, then open ones")
        #expect(first.bytes < 20 * 200, "\(first.bytes) bytes for one page")
        var seen = first.listings.map(\.name), cursor = first.next, pages = 1, largest = first.bytes
        while let after = cursor {
            let page = try probe.list(after: after, limit: ClientMessageDecoder.maxListLimit)
            #expect(page.listings.count <= ClientMessageDecoder.maxListLimit)
            seen += page.listings.map(\.name)
            largest = max(largest, page.bytes)
            cursor = page.next
            pages += 1
        }
        #expect(seen.count == 302 && Set(seen).count == 302, "every match exactly once")
        #expect(pages == 1 + 6)
        #expect(largest < 50 * 200, "\(largest) bytes for the largest page")

        probe.send(.list(after: "not a cursor"), id: 9)
        #expect(try probe.awaitError(.badField).details["field"] == "after")
        probe.sendRaw(#"{"type":"list","limit":51}"# + "\n")
        #expect(try probe.awaitError(.badField).details["field"] == "limit")
    }

    @Test func aListCostsFiveMessagesAgainstTheRateLimit() throws {
        let server = try TestServer { $0.limits.messageBurst = 12 }  // the manual clock never refills it
        defer { server.stop() }
        let probe = try TestClient.greeted(server)
        _ = try probe.list()
        _ = try probe.list()
        probe.send(.list(), id: 3)
        let refused = try probe.awaitError(.rateLimited)
        #expect(refused.code == .rateLimited)
        // Two messages' worth are left; the connection is read again once six are (half the burst,
        // 80 ms at 50 a second), and then a ping passes.
        server.advance(by: 80)
        probe.send(.ping(time: 1))
        _ = try probe.waitFor("pong") { if case .pong(_, 1, _) = $0 { true } else { nil } }
    }

    @Test func oneOrderingOfTheListServesEveryRequestForASecond() throws {
        let server = try TestServer { $0.list.cacheMs = 1_000 }
        defer { server.stop() }
        let probe = try TestClient.greeted(server)
        #expect(try probe.list().listings.isEmpty)
        let ann = try TestClient.joined(server, name: "ann", match: "new")
        _ = ann
        #expect(try probe.list().listings.isEmpty, "the cached ordering is used within the second")
        server.advance(by: 1_000)
        #expect(try probe.list().listings.map(\.name) == ["new"])
    }

    @Test func oneAddressHoldsAtMostItsShareOfConnections() throws {
        let server = try TestServer { $0.limits.maxConnections = 64 }
        defer { server.stop() }
        let share = 64 / AddressShares.share
        var held: [TestClient] = []
        for _ in 0..<share { held.append(try TestClient.greeted(server, from: "127.0.0.2")) }
        let refused = TestClient(connectedSocket: try loopbackSocket(from: "127.0.0.2", to: server.port))
        let error = try refused.awaitError(.addressLimit)
        #expect(error.fatal)
        #expect(refused.drainToEndOfStream() != nil, "the refused connection is closed")
        _ = try TestClient.greeted(server, from: "127.0.0.3")  // another address is welcome
        held.removeLast()
        // Its count goes down as connections close: once the server has seen this one go, one more fits.
        let probe = try TestClient.greeted(server, from: "127.0.0.3")
        probe.send(.ping(time: 1))
        _ = try probe.waitFor("pong") { if case .pong = $0 { true } else { nil } }
        var welcomed = false
        for _ in 0..<100 where !welcomed {
            let again = TestClient(connectedSocket: try loopbackSocket(from: "127.0.0.2", to: server.port))
            if case .welcome = try again.next("welcome or refusal") { welcomed = true; held.append(again) }
        }
        #expect(welcomed)
    }

    @Test func oneAddressCreatesAtMostItsShareOfMatchesAndOfWaitingDuels() throws {
        let server = try TestServer { $0.perAddress = AddressShares(matches: 4, waitingMatches: 2) }
        defer { server.stop() }
        var waiting: [TestClient] = []
        for name in ["a", "b"] {
            let client = try TestClient.greeted(server, from: "127.0.0.2")
            #expect(try client.joinOutcome(JoinRequest(name: "w", match: name)) == nil)
            waiting.append(client)
        }
        let third = try TestClient.greeted(server, from: "127.0.0.2")
        #expect(try third.joinOutcome(JoinRequest(name: "w", match: "c"))?.code == .addressLimit)
        #expect(try third.joinOutcome(JoinRequest(name: "w"))?.code == .addressLimit, "pairing would create a third")
        // Joining someone else's match creates nothing and is always allowed.
        let other = try TestClient.greeted(server, from: "127.0.0.3")
        #expect(try other.joinOutcome(JoinRequest(name: "o", match: "theirs")) == nil)
        #expect(try third.joinOutcome(JoinRequest(name: "w", match: "theirs")) == nil)
        // Solo games count toward the matches an address holds: a, b, s1 and s2 make four.
        try leaveASoloGame(server, named: "s1", from: "127.0.0.2")
        try leaveASoloGame(server, named: "s2", from: "127.0.0.2")
        let fifth = try TestClient.greeted(server, from: "127.0.0.2")
        #expect(try fifth.joinOutcome(JoinRequest(name: "w", match: "s3", mode: .solo))?.code == .addressLimit)
        #expect(try fifth.joinOutcome(JoinRequest(name: "w", match: "s3", mode: .solo)) != nil)
        let elsewhere = try TestClient.greeted(server, from: "127.0.0.3")
        #expect(try elsewhere.joinOutcome(JoinRequest(name: "w", match: "s3", mode: .solo)) == nil)
    }

    /// Leaving costs nothing, so an address holds only its share of matches whose players all
    /// left (each waiting out its seat wait): past it, it creates no other until it goes back to
    /// one or one ends. Before, 17 addresses filled a server's 4,096 matches with solo games of
    /// one move each, for two minutes at a time, holding no connection at all.
    @Test func oneAddressHoldsAtMostItsShareOfMatchesItsPlayersLeft() throws {
        let server = try TestServer { $0.perAddress.unattended = 2 }
        defer { server.stop() }
        var tokens: [String] = []
        for name in ["s1", "s2"] {
            let client = try TestClient.greeted(server, from: "127.0.0.2")
            client.send(.join(JoinRequest(name: "p", match: name, mode: .solo)))
            _ = try client.waitFor("snapshot") { if case .snapshot = $0 { true } else { nil } }
            tokens.append(try #require(client.token))
            client.send(.act(.select(client.view!.table[0]), seat: nil))
            _ = try client.awaitEvent("the move") { if case .rules(.selectionChanged) = $0 { true } else { false } }
            client.hangUp()
        }
        // The server hears both hang-ups: the list shows nobody present in either.
        let probe = try TestClient.greeted(server, from: "127.0.0.9")
        _ = try polled({ try probe.list().listings }, until: { listings in
            listings.filter { ["s1", "s2"].contains($0.name) && $0.players.allSatisfy { !$0.present } }.count == 2
        })
        let third = try TestClient.greeted(server, from: "127.0.0.2")
        let refused = try third.joinOutcome(JoinRequest(name: "p", match: "s3", mode: .solo))
        #expect(refused?.code == .addressLimit && refused?.message.contains("2 matches whose players all left") == true,
                "\(String(describing: refused))")
        // Another address is not held back.
        #expect(try TestClient.greeted(server, from: "127.0.0.3").joinOutcome(JoinRequest(name: "p", match: "t1", mode: .solo)) == nil)
        // Going back to one with its token leaves one whose player left: the address creates again.
        let back = try TestClient.greeted(server, from: "127.0.0.2")
        #expect(try back.joinOutcome(JoinRequest(name: "p", match: "s1", token: tokens[0])) == nil)
        #expect(try third.joinOutcome(JoinRequest(name: "p", match: "s3", mode: .solo)) == nil)
    }

    /// The lockout loop of issue 11: connect, join a new match, hang up, thousands of times.
    @Test func connectJoinHangUpLeavesNoMatchAndNoJournalAndRealPlayersStillPlay() throws {
        let data = temporaryDirectory()
        let server = try TestServer {
            $0.dataDirectory = data
            $0.maxMatches = 64
        }
        defer { server.stop() }
        for round in 0..<600 {
            let client = try TestClient.greeted(server, from: "127.0.0.4")
            let request = switch round % 3 {
            case 0: JoinRequest(name: "x", match: "lock-\(round)")
            case 1: JoinRequest(name: "x")
            default: JoinRequest(name: "x", match: "solo-\(round)", mode: .solo)
            }
            let refusal = try client.joinOutcome(request)
            #expect(refusal == nil, "round \(round): \(refusal?.code.rawValue ?? "") \(refusal?.message ?? "")")
        }
        // Ten times the match limit came and went. The last hang-ups may still be on their way
        // to the server (a quick join paired with one of them would be paired with a leaver):
        // the lobby is waited for until it has nothing listed.
        let probe = try TestClient.greeted(server)
        let deadline = ContinuousClock.now.advanced(by: .seconds(30))
        while try !probe.list().listings.isEmpty {
            guard ContinuousClock.now < deadline else { throw ClientTimedOut(waitingFor: "the hung-up matches to go") }
            usleep(100_000)
        }
        // Real players are paired and play.
        let (ann, bob) = try TestClient.duel(server, match: nil)
        defer { withExtendedLifetime(bob) {} }  // Bob stays at the table while the listing is checked.
        #expect(ann.view?.phase == .playing && ann.view?.players.map(\.name) == ["ann", "bob"])
        #expect(try probe.list().listings.map(\.name) == [ann.view!.match])
        let files = try FileManager.default.contentsOfDirectory(atPath: data).filter { $0.hasSuffix(".jsonl") }
        let finished = try FileManager.default.contentsOfDirectory(atPath: data + "/finished")
        #expect(files == ["\(ann.view!.match).jsonl"], "only the dealt duel has a journal")
        #expect(finished.isEmpty, "\(finished.count) abandoned matches left journals")
    }

    /// Issue 16 #7: Ann waits, Eve watches, Ann leaves; Bob is paired with Cat, who is there.
    @Test func pairingSeatsANewcomerOnlyWithAPresentPlayer() throws {
        let server = try TestServer()
        defer { server.stop() }
        var ann: TestClient? = try TestClient.joined(server, name: "ann", match: nil)
        let annMatch = ann!.view!.match
        let eve = try TestClient.joined(server, name: "eve", match: annMatch, role: .spectator)
        ann = nil
        _ = try eve.awaitError(.noSuchMatch)
        let cat = try TestClient.joined(server, name: "cat", match: nil)
        let bob = try TestClient.joined(server, name: "bob", match: nil)
        #expect(bob.view?.match == cat.view?.match && bob.view?.match != annMatch)
        #expect(bob.view?.phase == .playing && bob.view?.forfeitAt == nil)
        #expect(bob.view?.players.map(\.name) == ["cat", "bob"] && bob.view?.players.allSatisfy(\.present) == true)
    }

    @Test func aMatchGetsAJournalOnlyOnceItHoldsSomethingWorthKeeping() throws {
        let data = temporaryDirectory()
        let server = try TestServer { $0.dataDirectory = data }
        defer { server.stop() }
        func journals() throws -> [String] {
            try FileManager.default.contentsOfDirectory(atPath: data).filter { $0.hasSuffix(".jsonl") }.sorted()
        }
        let ann = try TestClient.joined(server, name: "ann", match: "duel")
        let sol = try TestClient.joined(server, name: "sol", match: "alone", mode: .solo)
        #expect(try journals().isEmpty, "a waiting duel and an untouched solo game keep nothing")
        let bob = try TestClient.joined(server, name: "bob", match: "duel")
        try ann.awaitSeq(bob.view!.seq)
        #expect(try journals() == ["duel.jsonl"])
        sol.send(.act(.select(sol.view!.table[0]), seat: nil))
        _ = try sol.awaitEvent("the move") { if case .rules(.selectionChanged) = $0 { true } else { false } }
        #expect(try journals() == ["alone.jsonl", "duel.jsonl"])
        // What was held back is all there: the header, the seats and the game, in order.
        let lines = try String(contentsOfFile: data + "/duel.jsonl", encoding: .utf8).split(separator: "\n")
        #expect(lines.prefix(4).map { $0.contains("\"type\":\"match\"") || $0.contains("\"type\":\"seat\"") || $0.contains("\"type\":\"game\"") }
            == [true, true, true, true])
    }

    @Test func finishedJournalsAreBoundedByCountAndAge() throws {
        let data = temporaryDirectory()
        let finished = data + "/finished"
        try FileManager.default.createDirectory(atPath: finished, withIntermediateDirectories: true)
        let now = Date().timeIntervalSince1970
        for index in 0..<30 {
            let path = "\(finished)/m\(index)-1-1.jsonl"
            _ = FileManager.default.createFile(atPath: path, contents: Data("{}\n".utf8))
            // m0 is the newest; m25 and beyond are over 40 days old.
            let age = index >= 25 ? 40 * 86_400.0 : Double(index) * 60
            var times = [timeval(tv_sec: Int(now - age), tv_usec: 0), timeval(tv_sec: Int(now - age), tv_usec: 0)]
            utimes(path, &times)
        }
        let server = try TestServer {
            $0.dataDirectory = data
            $0.accounts.allowsEmptyStore = true  // finished journals made by hand, and no store
            $0.finished.keep = 20
            $0.finished.maxAgeDays = 30
        }
        server.stop()
        let kept = try FileManager.default.contentsOfDirectory(atPath: finished).sorted()
        #expect(kept == (0..<20).map { "m\($0)-1-1.jsonl" }.sorted())
        let aged = try TestServer {
            $0.dataDirectory = data
            $0.finished.keep = 100
            $0.finished.maxAgeDays = 0  // nothing is young enough
        }
        aged.stop()
        #expect(try FileManager.default.contentsOfDirectory(atPath: finished).isEmpty)
    }
}

/// Two connections of one attacker pairing with each other and leaving deal a duel; with no move
/// made it must not hold a match for the seat wait, nor leave a journal.
@Suite(.serialized) struct AbandonedDuelTests {
    @Test func aDealtDuelNobodyMovedInIsFreedWithItsJournalOnceBothAreGone() throws {
        let data = NSTemporaryDirectory() + "setgame-abandoned-\(UUID().uuidString)"
        let server = try TestServer { $0.dataDirectory = data }
        defer { server.stop() }
        for _ in 0..<50 {
            // Both connections close at the end of each round.
            let ann = try TestClient.joined(server, name: "ann", match: nil)
            let bob = try TestClient.joined(server, name: "bob", match: nil)
            #expect(bob.view?.phase == .playing && ann.view?.match == bob.view?.match)
        }
        let probe = try TestClient.greeted(server)
        // The last leave may still be on its way, and nothing orders it before the list: ask until it is in.
        let listed = try polled({ try probe.list().listings }, until: \.isEmpty)
        #expect(listed.isEmpty, "\(listed.count) dealt but untouched duels held")
        let files = try FileManager.default.contentsOfDirectory(atPath: data).filter { $0.hasSuffix(".jsonl") }
        let finished = try FileManager.default.contentsOfDirectory(atPath: data + "/finished")
        #expect(files.isEmpty && finished.isEmpty, "\(files.count) journals, \(finished.count) finished")
    }
}

@Suite(.serialized) struct ConnectRateTests {
    @Test func anAddressThatConnectsTooOftenIsTurnedAwayAtTheDoorUntilItsAllowanceRefills() throws {
        let server = try TestServer { $0.perAddress.connectsPerSecond = 5 }
        defer { server.stop() }
        var held: [TestClient] = []
        for _ in 0..<10 { held.append(try TestClient.greeted(server, from: "127.0.0.5")) }  // a burst of twice the rate
        let turned = TestClient(connectedSocket: try loopbackSocket(from: "127.0.0.5", to: server.port))
        let error = try turned.awaitError(.addressLimit)
        #expect(error.fatal && error.message.contains("too often"))
        _ = try TestClient.greeted(server, from: "127.0.0.6")  // another address is not affected
        server.advance(by: 1_000)  // five more
        for _ in 0..<5 { held.append(try TestClient.greeted(server, from: "127.0.0.5")) }
        let again = TestClient(connectedSocket: try loopbackSocket(from: "127.0.0.5", to: server.port))
        #expect(try again.awaitError(.addressLimit).code == .addressLimit)
    }
}
