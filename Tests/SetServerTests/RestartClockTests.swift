import Foundation
import SetNet
import SetRules
@testable import SetServer
import SetWire
import Testing

/// "Time never runs backwards, even across a restart" (issue 22, item 16): a restarted server
/// stamps its restart above every time its clients saw, and a window paused by the restart keeps
/// what it had left when the server went down, never more. Both after a crash (the data folder
/// copied while the server runs is exactly what `kill -9` leaves) and after a clean stop.
@Suite(.serialized) struct RestartClockTests {
    func temporaryDirectory() -> String { temporaryFolder("setgame-clock") }

    /// What a crash leaves: the journals and the state file as they are on disk now.
    func crashImage(of data: String) throws -> String {
        let copy = temporaryDirectory()
        for name in try FileManager.default.contentsOfDirectory(atPath: data) where name.hasSuffix(".jsonl") || name == "server-state.json" {
            try FileManager.default.copyItem(atPath: "\(data)/\(name)", toPath: "\(copy)/\(name)")
        }
        return copy
    }

    /// Takes a seat back with `lastSeq`, giving `welcome` the time the server greets it with.
    func resume(_ server: TestServer, name: String, token: String, lastSeq: Int, welcome: (Int64) -> Void = { _ in }) throws -> TestClient {
        let client = try TestClient(port: server.port)
        welcome(try client.waitFor("welcome") { if case .welcome(_, _, let time, _) = $0 { time } else { nil } })
        client.send(.join(JoinRequest(name: name, match: "clock", token: token, lastSeq: lastSeq)))
        _ = try client.waitFor("joined") { if case .joined = $0 { true } else { nil } }
        return client
    }

    func events(of client: TestClient) -> [WireEvent] {
        client.received.compactMap { if case .event(let event) = $0 { event } else { nil } }
    }

    @Test(arguments: [true, false]) func aRestartNeitherRewindsTheClockNorHandsOutTime(crash: Bool) throws {
        let data = temporaryDirectory()
        var first: TestServer? = try TestServer { $0.dataDirectory = data }
        let (ann, bob) = try TestClient.duel(first!, match: "clock")
        ann.send(.act(.claim, seat: nil))
        let opened = try bob.awaitEvent("claim") { if case .rules(.windowOpened(let window)) = $0 { window.kind == .claim } else { false } }
        try ann.awaitSeq(opened.seq)
        let claim = try #require(bob.view?.window)
        #expect(claim.deadline.milliseconds - opened.time == 5_000)
        first!.advance(by: 1_500)
        var seen: Int64 = 0
        for client in [ann, bob] {
            client.send(.ping(time: 4))
            seen = max(seen, try client.waitFor("pong") { if case .pong(let time, 4, _) = $0 { time } else { nil } })
        }
        #expect(seen == opened.time + 1_500)
        let leftAtTheEnd = claim.deadline.milliseconds - seen
        let folder = crash ? try crashImage(of: data) : data
        let tokens = (try #require(ann.token), try #require(bob.token))
        let seqs = (ann.view!.seq, bob.view!.seq)
        withExtendedLifetime((ann, bob)) { first?.stop() }
        first = nil

        // A crash image keeps the journals and the lease, not the accounts: it may start empty.
        let second = try TestServer {  // its manual clock starts at 1000 again
            $0.dataDirectory = folder
            $0.accounts.allowsEmptyStore = crash
        }
        defer { second.stop() }
        let annBack = try resume(second, name: "ann", token: tokens.0, lastSeq: seqs.0) { #expect($0 > seen) }
        let bobBack = try resume(second, name: "bob", token: tokens.1, lastSeq: seqs.1)
        let resumed = try annBack.awaitEvent("resumed") { if case .resumed = $0 { true } else { false } }
        _ = try bobBack.awaitEvent("resumed") { if case .resumed = $0 { true } else { false } }

        // Every event after the restart, the restart's own `presence` included, is stamped above
        // every time the clients saw before it.
        let after = events(of: annBack) + events(of: bobBack)
        #expect(after.contains { if case .presence(_, false, _) = $0.body { true } else { false } }, "the restart's presence events were not resent")
        for event in after { #expect(event.time > seen, "event \(event.seq) \(event.body) at \(event.time), below \(seen)") }
        // The claim went on with what it had left when the server went down: after a clean stop
        // exactly that (to the millisecond), after a crash up to one lease less, never more.
        expectClaimKept(resumed, leftAtTheEnd: leftAtTheEnd, lostAtMost: crash ? ServerState.leaseMs : 1)
    }

    /// `resumed` goes on with the first seat's claim, which had `leftAtTheEnd` ms when the server
    /// went down: never more, and at most `lostAtMost` less.
    func expectClaimKept(_ resumed: WireEvent, leftAtTheEnd: Int64, lostAtMost: Int64) {
        guard case .resumed(let window?, _) = resumed.body else {
            Issue.record("the claim did not survive the restart: \(resumed)")
            return
        }
        #expect(window.kind == .claim && window.holder == .first)
        let left = window.deadline.milliseconds - resumed.time
        #expect(left <= leftAtTheEnd, "the restart handed out \(left - leftAtTheEnd) ms")
        #expect(left >= leftAtTheEnd - lostAtMost, "the restart took \(leftAtTheEnd - left) ms")
    }

    /// The lease is the record of how long the server ran: read at least every `renewEveryMs`, as
    /// the loop does, it stays ahead of the clock, so wherever a crash falls the restarted clock
    /// starts at or after it, and at most a lease later.
    @Test func theLeaseStaysAheadOfAClockReadEveryHalfLease() throws {
        let data = temporaryDirectory()
        try FileManager.default.createDirectory(atPath: data + "/damaged", withIntermediateDirectories: true)
        let directory = JournalDirectory(path: data, log: .silent)
        let base = ManualTime(1_000)
        let clock = LeasedTime(base: base, state: ServerState(in: directory))
        for step in [0, 1, 499, 500, 7, 250, 500, 500, 13] as [Int64] {
            base.advance(by: step)
            let read = clock.now().milliseconds
            // A crash anywhere until the next read, at most `renewEveryMs` later.
            let lease = try #require(try ServerState.read(data + "/server-state.json").get()).clockLease
            #expect(lease >= read + ServerState.renewEveryMs && lease <= read + ServerState.leaseMs, "read \(read), lease \(lease)")
        }
    }
}
