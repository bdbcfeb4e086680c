import Foundation
import SetNet
import SetRules
@testable import SetServer
import SetTestSupport
import SetWire
import Testing

/// A node restarted after a crash watches its own name's lease in the store before it serves (up
/// to `nameWatchMs`, 10 s by default), and its clock runs meanwhile. Its restored matches pause
/// from the restarted clock's first instant, so a window keeps what it had left when the node went
/// down, as on a lone server (`RestartClockTests`), instead of running out during the watch and
/// costing its holder 10 points for the node's crash.
@Suite(.serialized) struct NodeRestartClockTests {
    @Test func aWindowKeepsItsTimeWhileARestartedNodeWatchesItsOwnNamesLease() throws {
        guard let database = try TestDatabase.make(.postgres) else { return }
        let restarts = RestartClockTests()
        let data = restarts.temporaryDirectory()
        // The first node's clock stands still from here: it renews nothing, as a node killed with
        // -9 would not, so its lease in the store still runs when the second starts.
        let first = try NodeServerTests.node("a", database, data: data)
        defer { first.stop() }
        let (ann, bob) = try TestClient.duel(first, match: "clock")
        ann.send(.act(.claim, seat: nil))
        let opened = try bob.awaitEvent("claim") { if case .rules(.windowOpened(let window)) = $0 { window.kind == .claim } else { false } }
        try ann.awaitSeq(opened.seq)
        let claim = try #require(bob.view?.window)
        first.advance(by: 1_500)
        var seen: Int64 = 0
        for client in [ann, bob] {
            client.send(.ping(time: 4))
            seen = max(seen, try client.waitFor("pong") { if case .pong(let time, 4, _) = $0 { time } else { nil } })
        }
        let leftAtTheEnd = claim.deadline.milliseconds - seen
        #expect(leftAtTheEnd == 3_500)
        let image = try restarts.crashImage(of: data)
        let tokens = (try #require(ann.token), try #require(bob.token))
        let seqs = (ann.view!.seq, bob.view!.seq)

        // The second node's clock moves on by the whole default watch while it watches, as a real
        // clock would: more than the claim had left.
        let clock = ManualTime(1_000)
        let watching = ServerLogLines { line in
            if line.contains("for another server renewing it") { clock.advance(by: 10_000) }
        }
        let second = try TestServer(clock: clock, logLines: watching) {
            $0.store = .postgres(database.location)
            $0.cluster.node = "a"
            $0.cluster.advertise = "127.0.0.1:0"
            $0.cluster.wallBaseMs = NodeServerTests.wallBase
            $0.cluster.nameWatchMs = 500
            $0.dataDirectory = image
            $0.accounts.allowsEmptyStore = true
        }
        defer { second.stop() }
        #expect(second.logLines.all.contains { $0.contains("watching 500 ms for another server renewing it") })
        #expect(second.restoredMatches == ["clock"])

        let annBack = try restarts.resume(second, name: "ann", token: tokens.0, lastSeq: seqs.0)
        let bobBack = try restarts.resume(second, name: "bob", token: tokens.1, lastSeq: seqs.1)
        let resumed = try annBack.awaitEvent("resumed") { if case .resumed = $0 { true } else { false } }
        _ = try bobBack.awaitEvent("resumed") { if case .resumed = $0 { true } else { false } }
        let penalties = restarts.events(of: annBack).filter { if case .rules(.penalised) = $0.body { true } else { false } }
        #expect(penalties.isEmpty, "the claim ran out while the node watched its name: \(penalties)")
        restarts.expectClaimKept(resumed, leftAtTheEnd: leftAtTheEnd, lostAtMost: ServerState.leaseMs)
    }
}
