import Foundation
import SetDatabase
@testable import SetServer
import SetRules
import SetTestSupport
import SetWire
import Testing

/// One lobby for the whole service (issue 42 item 1), over real sockets: three nodes on one
/// throwaway PostgreSQL. The lobby is the placed room `~lobby`: a lobby request reaching another
/// node is redirected to its node, so a player listed through one node is seen and challenged
/// through another; accepted duels are named uniquely, listed from every node, watched and
/// resumed through any node.
@Suite(.serialized) struct LobbyNodeTests {
    typealias Nodes = NodeServerTests

    /// Three nodes whose `list` reads the other nodes' rows afresh each time.
    static func threeNodes(_ database: TestDatabase) throws -> [TestServer] {
        try ["a", "b", "c"].map { try node($0, database) }
    }

    static func node(_ name: String, _ database: TestDatabase, data: String? = nil) throws -> TestServer {
        try TestServer {
            $0.dataDirectory = data
            $0.store = .postgres(database.location)
            $0.cluster.node = name
            $0.cluster.advertise = "127.0.0.1:0"
            $0.cluster.wallBaseMs = Nodes.wallBase
            $0.list.cacheMs = 0
        }
    }

    /// The node the lobby is placed on among the three.
    static func lobbyNode(_ nodes: [TestServer]) -> TestServer {
        let name = Rendezvous.home(of: Server.lobbyRoom, among: ["a", "b", "c"])!
        return nodes[["a", "b", "c"].firstIndex(of: name)!]
    }

    static func server(at address: String, among nodes: [TestServer]) throws -> TestServer {
        guard let server = nodes.first(where: { address == "127.0.0.1:\($0.port)" }) else {
            throw ClientTimedOut(waitingFor: "a node at \(address)")
        }
        return server
    }

    /// `name` comes into the lobby through `server`, following its redirect as clients do;
    /// the connection it is listed on, and whether it was redirected.
    static func enter(_ name: String, through server: TestServer, nodes: [TestServer], account: String? = nil) throws -> (TestClient, Bool) {
        var join = JoinRequest(name: name)
        join.account = account
        let first = try Nodes.greeted(server)
        first.send(.lobby(.enter(join)), id: "e")
        let redirect = try first.waitFor("the lobby or its redirect") { message -> Redirect?? in
            if case .error(let error, _) = message { Issue.record("refused: \(error.message)") }
            if case .redirect(let redirect, _) = message { return .some(redirect) }
            if case .lobby(_, .string("e")?) = message { return .some(nil) }
            return nil
        }
        guard let redirect else { return (first, false) }
        #expect(redirect.match == Server.lobbyRoom)
        let there = try Nodes.greeted(try Self.server(at: redirect.address, among: nodes))
        there.send(.lobby(.enter(join)), id: "e")
        _ = try there.waitFor("the lobby") { if case .lobby(_, .string("e")?) = $0 { true } else { nil } }
        return (there, true)
    }

    /// A join (or watch) through `server`, following one redirect; the client and its `joined`.
    static func join(_ request: JoinRequest, through server: TestServer, nodes: [TestServer]) throws -> (TestClient, Role, String) {
        let client = try Nodes.greeted(server)
        client.send(.join(request))
        switch try NodePairingTests.answer(client) {
        case .seated(let match, _): return (client, request.role, match)
        case .redirected(let redirect):
            let there = try Nodes.greeted(try Self.server(at: redirect.address, among: nodes))
            there.send(.join(request))
            let (role, match, _) = try Nodes.joined(there)
            return (there, role, match)
        }
    }

    /// The names `list` through `server` shows, asked until `names` are all among them (the
    /// lobby's node writes its rows at its next renewal), for at most 10 s.
    static func listed(_ names: [String], through server: TestServer) throws -> Set<String> {
        var lister = try Nodes.greeted(server)
        var listed: Set<String> = []
        let deadline = Date().addingTimeInterval(10)
        var attempt: Int64 = 0
        while !listed.isSuperset(of: names), Date() < deadline {
            attempt += 1
            // A list costs 5 of a connection's rate (on the server's clock, which stands still here).
            if attempt % 15 == 0 { lister = try Nodes.greeted(server) }
            if attempt > 1 { Thread.sleep(forTimeInterval: 0.2) }
            lister.send(.list(), id: .int(attempt))
            listed = Set(try lister.waitFor("list") { message -> [MatchListing]? in
                if case .matches(let listings, _, .int(attempt)?) = message { return listings }
                return nil
            }.map(\.name))
        }
        return listed
    }

    @Test func aPlayerListedThroughOneNodeIsSeenAndChallengedThroughAnother() throws {
        guard let database = try TestDatabase.make(.postgres) else { return }
        let nodes = try Self.threeNodes(database)
        defer { nodes.forEach { $0.stop() } }
        let home = Self.lobbyNode(nodes)
        let others = nodes.filter { $0 !== home }
        let (ann, annMoved) = try Self.enter("ann", through: others[0], nodes: nodes)
        let (bob, bobMoved) = try Self.enter("bob", through: others[1], nodes: nodes)
        #expect(annMoved && bobMoved)
        bob.send(.lobby(.challenge(name: "ann", variant: nil)), id: "c")
        #expect(try ChallengeTests.notice(bob).state == .open)
        let heard = try ChallengeTests.notice(ann)
        #expect(heard.from == "bob" && heard.state == .open)

        // A challenge sent to a node that does not hold the lobby is sent there too.
        let stray = try Nodes.greeted(others[0])
        stray.send(.lobby(.challenge(name: "ann", variant: nil)))
        #expect(try Nodes.redirect(stray) == Redirect(match: Server.lobbyRoom, address: "127.0.0.1:\(home.port)"))
    }

    @Test func acceptedDuelsAreNamedUniquelyListedEverywhereWatchedAndResumedThroughAnyNode() throws {
        guard let database = try TestDatabase.make(.postgres) else { return }
        let nodes = try Self.threeNodes(database)
        defer { nodes.forEach { $0.stop() } }
        let (a, b, c) = (nodes[0], nodes[1], nodes[2])
        // Two challenges, one accepted through a's players and one through b's.
        let (ann, _) = try Self.enter("ann", through: a, nodes: nodes)
        let (amy, _) = try Self.enter("amy", through: a, nodes: nodes)
        let (bob, _) = try Self.enter("bob", through: b, nodes: nodes)
        let (ben, _) = try Self.enter("ben", through: b, nodes: nodes)
        ann.send(.lobby(.challenge(name: "amy", variant: nil)))
        _ = try ChallengeTests.notice(amy)
        amy.send(.lobby(.accept(from: "ann")))
        let first = try LobbyShareTests.accepted(amy), firstChallenger = try LobbyShareTests.accepted(ann)
        bob.send(.lobby(.challenge(name: "ben", variant: nil)))
        _ = try ChallengeTests.notice(ben)
        ben.send(.lobby(.accept(from: "bob")))
        let second = try LobbyShareTests.accepted(ben), secondChallenger = try LobbyShareTests.accepted(bob)
        let names = [try #require(first.match), try #require(second.match)]
        #expect(names[0] != names[1])
        #expect(names.allSatisfy { $0.hasPrefix("challenge-\(Rendezvous.home(of: Server.lobbyRoom, among: ["a", "b", "c"])!)-") })

        // The first sitters take their seats through a and b; b's challenger resumes through c.
        let (annSeat, _, annMatch) = try Self.join(JoinRequest(name: "ann", match: names[0], token: firstChallenger.token), through: a, nodes: nodes)
        let (bobSeat, _, bobMatch) = try Self.join(JoinRequest(name: "bob", match: names[1], token: secondChallenger.token), through: b, nodes: nodes)
        #expect(annMatch == names[0] && bobMatch == names[1])
        bobSeat.hangUp()
        var resume = JoinRequest(name: "bob", match: names[1], token: secondChallenger.token)
        resume.takeOver = true  // whether or not the lobby's node saw the old connection go yet
        let (bobBack, _, bobAgain) = try Self.join(resume, through: c, nodes: nodes)
        #expect(bobAgain == names[1])

        // Both are listed from c, and a spectator through c lands in the one it asked for.
        #expect(try Self.listed(names, through: c).isSuperset(of: names))
        let (_, role, watched) = try Self.join(JoinRequest(role: .spectator, name: "w", match: names[1]), through: c, nodes: nodes)
        #expect(role == .spectator && watched == names[1])
        withExtendedLifetime((annSeat, bobBack, second)) {}
    }

    /// An accept whose duel's row the store does not take (here a row another node holds under
    /// the duel's name) ends the challenge: told `expired` to both sides, the one who accepted
    /// with its `id`, never a `node_away` for a challenge that is gone.
    @Test func anAcceptWhoseDuelIsNotWrittenIsToldExpiredToBothSides() throws {
        guard let database = try TestDatabase.make(.postgres) else { return }
        let nodes = try Self.threeNodes(database)
        defer { nodes.forEach { $0.stop() } }
        let home = try #require(Rendezvous.home(of: Server.lobbyRoom, among: ["a", "b", "c"]))
        try database.database.execute("""
            INSERT INTO match_homes (match, node, lease_until, placed_until, mode, variant, state, seats, players, spectators)
            VALUES ($1, 'z', 9000000000000, 9000000000000, 'duel', 'classic', 'waiting', 0, '[]', 0)
            """, .text("challenge-\(home)-1"))
        let (ann, _) = try Self.enter("ann", through: nodes[0], nodes: nodes)
        let (amy, _) = try Self.enter("amy", through: nodes[1], nodes: nodes)
        ann.send(.lobby(.challenge(name: "amy", variant: nil)))
        _ = try ChallengeTests.notice(amy)
        amy.send(.lobby(.accept(from: "ann")), id: "yes")
        let answer = try amy.waitFor("the accept's answer") { message -> ChallengeNotice? in
            if case .error(let error, _) = message { Issue.record("refused: \(error.message)") }
            if case .challenge(let notice, .string("yes")?) = message { return notice }
            return nil
        }
        #expect(answer.state == .expired && answer.from == "ann")
        let told = try ann.waitFor("the expiry") { message -> ChallengeNotice? in
            if case .challenge(let notice, _) = message, notice.state == .expired { return notice }
            return nil
        }
        #expect(told.from == "ann" && told.to == "amy")
    }

    /// An accepted challenge's duel that neither player had sat in when its node (the lobby's)
    /// went down keeps both seats when the node is back on its data folder: each token is seated
    /// through another node, not refused `bad_token` before its seat wait passed.
    @Test func anAcceptedDuelKeepsItsSeatsThroughItsNodesRestart() throws {
        guard let database = try TestDatabase.make(.postgres) else { return }
        let home = try #require(Rendezvous.home(of: Server.lobbyRoom, among: ["a", "b", "c"]))
        let data = temporaryFolder("setgame-reserved")
        let nodes = try ["a", "b", "c"].map { try Self.node($0, database, data: $0 == home ? data : nil) }
        let lobbyNode = Self.lobbyNode(nodes), other = try #require(nodes.first { $0 !== lobbyNode })
        let (ann, _) = try Self.enter("ann", through: other, nodes: nodes)
        let (amy, _) = try Self.enter("amy", through: other, nodes: nodes)
        ann.send(.lobby(.challenge(name: "amy", variant: nil)))
        _ = try ChallengeTests.notice(amy)
        amy.send(.lobby(.accept(from: "ann")))
        let amyTold = try LobbyShareTests.accepted(amy), annTold = try LobbyShareTests.accepted(ann)
        lobbyNode.stop()
        let again = try Self.node(home, database, data: data)
        let live = nodes.filter { $0 !== lobbyNode } + [again]
        defer { live.forEach { $0.stop() } }
        let match = try #require(amyTold.match)
        let (amySeat, _, amyMatch) = try Self.join(JoinRequest(name: "amy", match: match, token: amyTold.token), through: other, nodes: live)
        let (annSeat, _, annMatch) = try Self.join(JoinRequest(name: "ann", match: match, token: annTold.token), through: other, nodes: live)
        #expect(amyMatch == match && annMatch == match)
        withExtendedLifetime((amySeat, annSeat)) {}
    }

    /// While the lobby's node is away, every other node answers `node_away` for the lobby, as
    /// it would for a match there.
    @Test func whileTheLobbysNodeIsAwayTheOthersSaySo() throws {
        guard let database = try TestDatabase.make(.postgres) else { return }
        let nodes = try Self.threeNodes(database)
        let home = Self.lobbyNode(nodes)
        defer { nodes.filter { $0 !== home }.forEach { $0.stop() } }  // a server stops once
        let other = try #require(nodes.first { $0 !== home })
        let (ann, moved) = try Self.enter("ann", through: other, nodes: nodes)
        #expect(moved)
        home.stop()  // its lease is given up: it is away from now on
        let late = try Nodes.greeted(other)
        late.send(.lobby(.enter(JoinRequest(name: "bob"))))
        let away = try late.awaitError(.nodeAway)
        #expect(away.details["match"] == .string(Server.lobbyRoom))
        withExtendedLifetime(ann) {}
    }

    /// The lobby's node restarted takes the lobby back, empty: presence is live connections,
    /// nothing is restored, and the other nodes send newcomers to its new address.
    @Test func aRestartedLobbyNodeHoldsTheLobbyAgainEmpty() throws {
        guard let database = try TestDatabase.make(.postgres) else { return }
        let nodes = try Self.threeNodes(database)
        let home = Self.lobbyNode(nodes)
        let other = try #require(nodes.first { $0 !== home })
        let (ann, _) = try Self.enter("ann", through: other, nodes: nodes)
        home.stop()
        let again = try Self.node(try #require(Rendezvous.home(of: Server.lobbyRoom, among: ["a", "b", "c"])), database)
        defer { (nodes.filter { $0 !== home } + [again]).forEach { $0.stop() } }
        let (bob, moved) = try Self.enter("bob", through: other, nodes: nodes.filter { $0 !== home } + [again])
        #expect(moved)
        bob.send(.lobby(.enter(JoinRequest(name: "bob"))), id: "again")
        let entries = try bob.waitFor("the lobby") { message -> [LobbyEntry]? in
            if case .lobby(let entries, .string("again")?) = message { return entries }
            return nil
        }
        #expect(entries.map(\.name) == ["bob"])
        withExtendedLifetime(ann) {}
    }
}
