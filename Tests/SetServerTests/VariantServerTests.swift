import Foundation
import SetNet
import SetRules
import SetServer
import SetWire
import Testing

/// Variants over real sockets: the creator chooses, others follow or are refused, pairing keeps
/// variants apart, and a restarted server or a replay rebuilds the variant from the journal.
@Suite(.serialized) struct VariantServerTests {
    /// Connects and joins, asking for `variant`; returns the client once the join is answered.
    func join(_ server: TestServer, _ name: String, match: String?, variant: Variant?, token: String? = nil) throws -> TestClient {
        let client = try TestClient(port: server.port)
        _ = try client.waitFor("welcome") { if case .welcome = $0 { true } else { nil } }
        client.send(.join(JoinRequest(name: name, match: match, token: token, variant: variant)))
        _ = try client.waitFor("snapshot or error") { message -> Bool? in
            switch message {
            case .snapshot, .error: true
            default: nil
            }
        }
        return client
    }

    /// Claims and picks the first valid pick `client` sees, and waits for the table to change.
    func takeAPick(_ client: TestClient) throws {
        let pick = try #require(client.view?.combinations.first)
        client.send(.act(.claim, seat: nil))
        for card in pick { client.send(.act(.select(card), seat: nil)) }
        _ = try client.awaitEvent("the table after the pick") { if case .rules(.tableChanged) = $0 { true } else { false } }
    }

    func temporaryDirectory() -> String { temporaryFolder("setgame-variant") }

    @Test func theCreatorChoosesTheVariantOthersFollowAndAnotherIsRefused() throws {
        let server = try TestServer()
        defer { server.stop() }
        let ann = try join(server, "ann", match: "u", variant: .ultra)
        #expect(ann.view?.variant == .ultra)
        let bob = try join(server, "bob", match: "u", variant: nil)
        let view = try #require(bob.view)
        #expect(view.variant == .ultra && view.table.count == 12 && view.phase == .playing)
        #expect(bob.lastLine?.contains(#""variant":"ultra""#) == true)
        let cat = try join(server, "cat", match: "u", variant: .classic)
        guard case .error(let error, _) = cat.received.last else { Issue.record("no error"); return }
        #expect(error.code == .variantMismatch)
        #expect(error.details["variant"] == .string("ultra"))
        cat.send(.list())
        let listings = try cat.waitFor("matches") { if case .matches(let list, _, _) = $0 { list } else { nil } }
        #expect(listings.map(\.variant) == [.ultra])
        // Naming the match's own variant passes that check and meets the next: the match is full.
        let same = try join(server, "dan", match: "u", variant: .ultra)
        guard case .error(let full, _) = same.received.last else { Issue.record("no error"); return }
        #expect(full.code == .matchFull)
    }

    @Test func aClassicMatchSaysNothingOfVariants() throws {
        let server = try TestServer()
        defer { server.stop() }
        let ann = try join(server, "ann", match: "c", variant: nil)
        let bob = try join(server, "bob", match: "c", variant: .classic)
        #expect(bob.view?.variant == .classic)
        for line in [ann.lastLine, bob.lastLine] { #expect(line?.contains("variant") == false && line?.contains("chain") == false) }
    }

    @Test func playersWhoNameNoMatchArePairedOnlyWithinTheirVariant() throws {
        let server = try TestServer()
        defer { server.stop() }
        let junior = try join(server, "ann", match: nil, variant: .junior)
        let classic = try join(server, "bob", match: nil, variant: nil)
        #expect(junior.view?.phase == .waiting && classic.view?.phase == .waiting)
        #expect(junior.view?.match != classic.view?.match)
        let second = try join(server, "cat", match: nil, variant: .junior)
        #expect(second.view?.match == junior.view?.match)
        #expect(second.view?.phase == .playing && second.view?.table.count == 9)
    }

    @Test func aSetChainDuelShowsTheChainToPlayersAndSpectatorsAlike() throws {
        let server = try TestServer()
        defer { server.stop() }
        let ann = try join(server, "ann", match: "ch", variant: .chain)
        let bob = try join(server, "bob", match: "ch", variant: nil)
        let eve = try TestClient.joined(server, name: "eve", match: "ch", role: .spectator)
        try ann.awaitSeq(eve.view!.seq)
        try bob.awaitSeq(eve.view!.seq)
        try takeAPick(ann)
        let first = try #require(ann.view?.chain)
        #expect(first.count == 3 && first.allSatisfy { !ann.view!.table.contains($0) })
        try bob.awaitSeq(ann.view!.seq)
        // The chain sets of this table: what spectators are told once it is no longer live.
        let linkable = bob.view?.combinations.count ?? 0
        #expect(linkable > 0, "this deal (seed 1) has a chain set for bob")
        if linkable > 0 {
            try takeAPick(bob)
            #expect(bob.view?.chain.filter(first.contains).count == 1)
        }
        try ann.awaitSeq(bob.view!.seq)
        // Spectators hear a count only once the game is over: of its last table, in chain sets.
        let lastLinkable = ann.view?.combinations.count
        ann.send(.act(.resign, seat: nil))
        _ = try ann.awaitEvent("game over") { if case .gameOver = $0 { true } else { false } }
        let last = ann.view!.seq
        // The insight follows the game's end, under its seq.
        _ = try eve.waitFor("insight \(last)") { if case .insight(_, let seq, _) = $0, seq == last { true } else { nil } }
        let fresh = try TestClient.joined(server, name: "zed", match: "ch", role: .spectator)
        for view in [ann.view, bob.view, eve.view] {
            #expect(view?.chain == fresh.view?.chain && view?.table == fresh.view?.table && view?.scores == fresh.view?.scores)
        }
        #expect(eve.view?.setsOnTable == fresh.view?.setsOnTable)
        #expect(eve.view?.setsOnTable == lastLinkable, "the last table is counted in chain sets")
    }

    @Test(arguments: [Variant.junior, .chain, .ultra])
    func aRestartedServerAndAReplayRebuildTheVariantFromTheJournal(variant: Variant) throws {
        let data = temporaryDirectory()
        var first: TestServer? = try TestServer { $0.dataDirectory = data; $0.seeds = .counting(from: 5) }
        let ann = try join(first!, "ann", match: "r", variant: variant)
        let bob = try join(first!, "bob", match: "r", variant: nil)
        try ann.awaitSeq(bob.view!.seq)
        try takeAPick(ann)
        try bob.awaitSeq(ann.view!.seq)
        let before = try #require(bob.view)
        let token = try #require(bob.token)
        first?.stop()
        first = nil
        let header = try String(contentsOfFile: data + "/r.jsonl", encoding: .utf8).split(separator: "\n").first ?? ""
        #expect(header.contains("\"variant\":\"\(variant.rawValue)\""))

        let second = try TestServer { $0.dataDirectory = data; $0.seeds = .counting(from: 999) }
        defer { second.stop() }
        let back = try join(second, "bob", match: "r", variant: nil, token: token)
        let view = try #require(back.view)
        #expect(view.variant == variant)
        #expect(view.table == before.table && view.deck == before.deck && view.scores == before.scores)
        #expect(view.chain == before.chain && (variant != .chain || view.chain.count == 3))

        let (replay, events) = try MatchReplay.load(data + "/r.jsonl")
        #expect(replay.variant == variant)
        #expect(replay.games.count == 1 && replay.games.allSatisfy(\.seedMatchesCommitment))
        let starts = events.compactMap { if case .gameStarted(let start) = $0.body { start } else { nil } }
        #expect(starts.count == 1 && starts.allSatisfy { start in replay.games.contains { $0.number == start.game && $0.deals(start.table) } })
        #expect(events.contains { event in
            if case .rules(.setTaken(_, let cards, _, _)) = event.body { cards.count == variant.pickCount } else { false }
        })
    }

    @Test func aClassicJournalHeaderIsWrittenAsBeforeVariants() throws {
        let data = temporaryDirectory()
        let server = try TestServer { $0.dataDirectory = data }
        // A playing match keeps its journal in place over a stop (a waiting one is retired).
        let ann = try join(server, "ann", match: "plain", variant: nil)
        let bob = try join(server, "bob", match: "plain", variant: nil)
        #expect(bob.view?.phase == .playing)
        server.stop()
        withExtendedLifetime(ann) {}
        let header = try String(contentsOfFile: data + "/plain.jsonl", encoding: .utf8).split(separator: "\n").first ?? ""
        #expect(header.hasPrefix(#"{"mode":"duel","name":"plain","rules":{"#))
        #expect(!header.contains("variant"))
    }
}
