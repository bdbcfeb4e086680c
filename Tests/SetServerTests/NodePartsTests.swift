@testable import SetServer
import SetWire
import Testing

/// The pure parts of several servers sharing a store: rendezvous placement, lease arithmetic on
/// wall times handed in, and what `--node` needs.
@Suite struct NodePartsTests {
    @Test func aMatchsWeightIsTheFirstEightBytesOfItsHash() {
        // Python: int.from_bytes(hashlib.sha256(b"duel-1\x00a").digest()[:8], "big")
        #expect(Rendezvous.weight("duel-1", "a") == 11_741_625_821_883_992_708)
    }

    @Test func everyNodeAgreesOnAHomeWhateverTheOrderItKnowsTheNodesIn() {
        for index in 0..<200 {
            let match = "m\(index)"
            let home = Rendezvous.home(of: match, among: ["a", "b", "c"])
            #expect(Rendezvous.home(of: match, among: ["c", "a", "b"]) == home)
            #expect(Rendezvous.home(of: match, among: ["b", "c", "a"]) == home)
        }
        #expect(Rendezvous.home(of: "m", among: []) == nil)
    }

    @Test func aNodeLeavingMovesOnlyTheMatchesItHeld() {
        var moved = 0
        for index in 0..<600 {
            let match = "m\(index)"
            let before = Rendezvous.home(of: match, among: ["a", "b", "c"])
            let after = Rendezvous.home(of: match, among: ["a", "b"])
            if before != "c" { #expect(after == before) } else { moved += 1 }
        }
        // Each node wins about a third.
        #expect((120...280).contains(moved), "\(moved)")
    }

    @Test func aLeaseIsAliveUntilItsEndExactly() {
        let lease = NodeLease.renewed(at: 50_000, for: 10_000)
        #expect(lease.until == 60_000)
        #expect(lease.isAlive(at: 59_999))
        #expect(!lease.isAlive(at: 60_000))
        #expect(OwnLease.state(of: lease, at: 59_999) == .held(lease))
        #expect(OwnLease.state(of: lease, at: 60_000) == .lapsed(lease))
    }

    @Test func aClientWaitsUntilTheLeaseEndsAndAtLeastASecond() {
        let lease = NodeLease(until: 60_000)
        #expect(lease.retryAfterMs(at: 52_000) == 8_000)
        #expect(lease.retryAfterMs(at: 59_500) == 1_000)
        #expect(lease.retryAfterMs(at: 90_000) == 1_000)
    }

    @Test func aNodeNeedsAPostgreSQLStoreAndAnAddress() {
        let postgres = StoreLocation.postgres("postgresql://setgame@127.0.0.1:5432/setgame")
        var settings = ClusterSettings()
        #expect(settings.problem(store: nil) == nil)
        settings.advertise = "10.0.0.1:7380"
        #expect(settings.problem(store: postgres) == "--advertise needs --node")
        settings.node = "a"
        #expect(settings.problem(store: postgres) == nil)
        #expect(settings.problem(store: .sqliteFile("/x")) == "--node needs a PostgreSQL --store (postgresql://…) that the nodes share")
        #expect(settings.problem(store: nil) != nil)
        settings.advertise = nil
        #expect(settings.problem(store: postgres) == "--node needs --advertise HOST:PORT, where clients reach this node")
        settings.advertise = "10.0.0.1"
        #expect(settings.problem(store: postgres)
                == "--advertise takes HOST:PORT, a name or address clients can reach (letters, digits, '.', '-'; IPv6 in []), not '10.0.0.1'")
        settings.advertise = "10.0.0.1:7380"
        settings.node = "Node A"
        #expect(settings.problem(store: postgres) == "a node's name is 1–16 of a–z, 0–9 and -, not 'Node A'")
    }

    /// Every player redirected to a node goes where it advertises: an address a client refuses
    /// (a space, a control character, a name too long) or cannot look up is refused at start.
    @Test func anAdvertisedAddressIsOneClientsCanReach() {
        for good in ["a.play.example.org:7380", "10.0.0.1:7380", "[::1]:7380", "[2001:db8::7]:7380", "node-a:0", "A.Example.ORG:1"] {
            #expect(ClusterSettings.isAcceptable(advertise: good), "\(good)")
        }
        let long = String(repeating: "a", count: 254) + ":7380"
        for bad in ["bad host:7380", "a;rm -rf:7380", "h\u{1B}[2J:7380", "héllo:7380", "a:b:7380", "[::1:7380", ":7380", "a:", "a:99999",
                    "a/b:7380", "a_b:7380", long, "[a-b]:7380"] {
            #expect(!ClusterSettings.isAcceptable(advertise: bad), "\(bad)")
        }
    }

    @Test func anAddressAdvertisedWithPortZeroTakesThePortBound() {
        var settings = ClusterSettings()
        settings.node = "b"
        settings.advertise = "127.0.0.2:0"
        #expect(settings.identity(boundPort: 41_234) == NodeIdentity(name: "b", address: "127.0.0.2:41234"))
        settings.advertise = "127.0.0.2:7380"
        #expect(settings.identity(boundPort: 41_234) == NodeIdentity(name: "b", address: "127.0.0.2:7380"))
    }

    @Test func aServerToldToBeANodeWithoutASharedStoreDoesNotStart() {
        var config = ServerConfig()
        config.port = 0
        config.cluster.node = "a"
        config.cluster.advertise = "127.0.0.1:0"
        do {
            _ = try Server(config: config, log: .silent)
            Issue.record("a node started without a shared store")
        } catch {
            #expect(error.description == "cannot serve as a node: --node needs a PostgreSQL --store (postgresql://…) that the nodes share")
        }
    }

    @Test func aMatchIsKeptInTheStoreWithoutItsRunningScores() {
        let listing = MatchListing(name: "demo", mode: .duel, phase: .playing,
                                   players: [PlayerInfo(seat: .first, name: "ann", present: true, score: 42, rating: 1612, provisional: true),
                                             PlayerInfo(seat: .second, name: "bob", present: false, score: -5)],
                                   spectators: 3, variant: .junior)
        let kept = listing.storedSummary
        #expect(kept.players.map(\.score) == [0, 0])
        #expect(kept.players.map(\.name) == ["ann", "bob"])
        #expect(kept.players.map(\.rating) == [1612, nil])
        #expect(kept.players.map(\.present) == [true, false])
        #expect(kept.spectators == 3 && kept.phase == .playing && kept.variant == .junior)
        // A set taken changes nothing the store keeps: no write at the next renewal.
        var later = listing
        later.players[0].score = 72
        #expect(later.storedSummary == kept)
    }
}
