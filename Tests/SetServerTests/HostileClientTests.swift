import Glibc
import SetNet
import SetRules
@testable import SetServer
import SetWire
import Testing

/// Clients that stop reading, drip, flood or crowd the server: each is dealt with on its own, and
/// the matches around it play on as if it were not there.
@Suite(.serialized) struct HostileClientTests {
    func greeted(_ server: TestServer) throws -> TestClient {
        let client = try TestClient(port: server.port)
        _ = try client.next("welcome")
        return client
    }

    /// Two ping round trips: the second is read only after the loop finished the batch (and the
    /// tick) in which it answered the first, so everything sent or due before is done.
    func settle(_ client: TestClient) throws {
        for mark in [Int64(-1), -2] {
            client.send(.ping(time: mark))
            _ = try client.waitFor("pong \(mark)") { if case .pong(_, mark, _) = $0 { true } else { nil } }
        }
    }

    func expectOpen(_ client: TestClient) throws {
        client.send(.ping(time: 1))
        _ = try client.waitFor("pong") { if case .pong(_, 1, _) = $0 { true } else { nil } }
    }

    func startedDuel(_ server: TestServer, match: String = "m") throws -> (TestClient, TestClient) {
        let (ann, bob) = try TestClient.duel(server, match: match)
        return (ann, bob)
    }

    // MARK: Slow consumers

    /// Measures one action from the send to the first event it causes at the actor, and to the
    /// last event it causes at the other player; returns the slower of the two.
    struct Stopwatch {
        var actions = 0
        var worstNanoseconds: UInt64 = 0

        mutating func act(_ action: Action, by actor: TestClient, watchedBy other: TestClient) throws {
            actions += 1
            let start = MonotonicTime.rawNanoseconds()
            actor.send(.act(action, seat: nil), id: .int(Int64(actions)))
            _ = try actor.waitFor("an event from \(action)") { if case .event = $0 { true } else { nil } }
            let atActor = MonotonicTime.rawNanoseconds() - start
            let seq = try actor.waitFor("ack") { if case .ack(_, let seq) = $0 { seq } else { nil } }
            try other.awaitSeq(seq)
            let atOther = MonotonicTime.rawNanoseconds() - start
            worstNanoseconds = max(worstNanoseconds, atActor, atOther)
        }
    }

    @Test func aSpectatorThatNeverReadsIsDroppedAndThePlayersNeverWaitForIt() throws {
        let server = try TestServer {
            $0.limits.outboundQueueBytes = 16_384
            $0.limits.messageBurst = 1_000_000  // the manual clock never refills the bucket
        }
        defer { server.stop() }
        let (ann, bob) = try startedDuel(server)
        let eve = try stuckSpectator(server, announcedTo: ann)  // from here on eve reads nothing
        try bob.awaitSeq(ann.view!.seq)

        // Windows never run out on the manual clock, so the players can toggle a card for ever.
        let card = ann.view!.table[0]
        var watch = Stopwatch()
        var actionsWhenDropped: Int?
        // The bound only turns a server that never drops her into a failure rather than a hang.
        while watch.actions < (actionsWhenDropped ?? 50_000) + 200 {
            try watch.act(.claim, by: ann, watchedBy: bob)
            for _ in 0..<20 { try watch.act(.select(card), by: ann, watchedBy: bob) }
            try watch.act(.pass, by: ann, watchedBy: bob)
            for _ in 0..<20 { try watch.act(.select(card), by: bob, watchedBy: ann) }
            try watch.act(.pass, by: bob, watchedBy: ann)
            if actionsWhenDropped == nil && ann.view?.spectators == 0 { actionsWhenDropped = watch.actions }
        }
        let dropped = try #require(actionsWhenDropped, "eve was never dropped")
        #expect(bob.view?.spectators == 0)
        #expect(server.logLines.all.contains { $0.contains("eve (watching m) left: dropped: slow consumer") })
        // A generous bound, not a benchmark: a blocked reader must not hold the match up at all.
        #expect(watch.worstNanoseconds < 200_000_000, "worst action→event latency \(watch.worstNanoseconds / 1_000) µs")
        #expect(dropped > 100, "dropped before her buffers could have filled")

        // eve reads only after the server stopped lingering for her (a sweep past the deadline
        // closed her socket; ann's pong comes after that sweep): what she finds is a gap-free run
        // of the match's events, the slow_consumer line, then the end. The line was decided when
        // her buffers were full; the kernel's buffer grew for it as her connection closed.
        server.advance(by: ConnectionTable.lingerMs + 1_000)
        ann.send(.ping(time: 1))
        _ = try ann.waitFor("a pong after the sweep") { if case .pong = $0 { true } else { nil } }
        let (lines, endsMidLine) = try #require(eve.drainToEndOfStream(), "eve's connection was never closed")
        var seqs: [Int] = []
        for line in lines {
            if case .success(.event(let event)) = ServerMessageCoding.decode(Array(line.utf8)) { seqs.append(event.seq) }
        }
        #expect(!seqs.isEmpty && seqs == Array(seqs.first!...seqs.last!))
        #expect(!endsMidLine, "no line cut short")
        guard case .success(.error(let error, _))? = lines.last.map({ ServerMessageCoding.decode(Array($0.utf8)) }) else {
            Issue.record("the last line is not the error: \(lines.last ?? "none")")
            return
        }
        #expect(error.code == .slowConsumer && error.fatal)
    }

    /// Readers that stopped, each under its own queue's limit, cannot take the server's memory
    /// between them: once all queues together hold more than `queuedBytesTotal` (64 KiB here,
    /// 64 MiB by default), a sweep drops the fullest as slow consumers. A spectator who reads is
    /// kept, and the match plays on.
    @Test func stuckReadersTogetherOverTheBudgetAreDroppedFullestFirst() throws {
        let server = try TestServer {
            $0.limits.queuedBytesTotal = 64 << 10
            $0.limits.messageBurst = 1_000_000
        }
        defer { server.stop() }
        let (ann, bob) = try startedDuel(server)
        let stuck = [try stuckSpectator(server, announcedTo: ann)]
        let reader = try TestClient(port: server.port)
        _ = try reader.next("welcome")
        reader.send(.join(JoinRequest(role: .spectator, name: "rex", match: "m")))
        _ = try ann.awaitEvent("rex arrives") { $0 == .spectators(count: 2) }
        let second = TestClient(connectedSocket: try starvedSocket(port: server.port))
        _ = try second.next("welcome")
        second.send(.join(JoinRequest(role: .spectator, name: "sid", match: "m")))
        _ = try ann.awaitEvent("sid arrives") { $0 == .spectators(count: 3) }
        try bob.awaitSeq(ann.view!.seq)

        let card = ann.view!.table[0]
        var watch = Stopwatch()
        // Some 600 kB of events each: the kernel holds a few hundred kB for a stuck reader, so
        // each one's queue is far under its own 1 MiB, and the two together far over 64 KiB.
        for _ in 0..<60 {
            try watch.act(.claim, by: ann, watchedBy: bob)
            for _ in 0..<20 { try watch.act(.select(card), by: ann, watchedBy: bob) }
            try watch.act(.pass, by: ann, watchedBy: bob)
            // bob's second chance opens by itself.
            for _ in 0..<20 { try watch.act(.select(card), by: bob, watchedBy: ann) }
            try watch.act(.pass, by: bob, watchedBy: ann)
        }
        _ = try reader.waitFor("rex keeps up") { message in
            if case .event(let event) = message, event.seq == ann.view!.seq { true } else { nil }
        }
        #expect(ann.view?.spectators == 3, "nobody was dropped for its own queue; the test needs them under it")
        server.advance(by: 1_000)  // a sweep; ann's pong comes after it
        ann.send(.ping(time: 1))
        _ = try ann.waitFor("a pong after the sweep") { if case .pong = $0 { true } else { nil } }
        let dropped = server.logLines.all.filter { $0.contains("dropped: slow consumer") }
        #expect(dropped.count >= 1 && dropped.allSatisfy { $0.contains("eve") || $0.contains("sid") }, "\(dropped)")
        // The match plays on, and rex, who reads, still watches it.
        try watch.act(.claim, by: ann, watchedBy: bob)
        _ = try reader.waitFor("rex sees the next event") { message in
            if case .event(let event) = message, event.seq == ann.view!.seq { true } else { nil }
        }
        withExtendedLifetime((stuck, second)) {}
    }

    /// A listener told a send buffer gives each accepted socket that one (the kernel keeps
    /// twice what it is asked for), not the megabytes Linux grows a stalled peer's buffer to; a
    /// socket closing after delivering grows it by what it still has to send.
    @Test func acceptedSocketsHaveTheSendBufferTheListenerWasToldAndItGrowsToClose() throws {
        func sendBuffer(_ fd: Int32) -> Int {
            var size: Int32 = 0
            var length = socklen_t(MemoryLayout<Int32>.size)
            getsockopt(fd, SOL_SOCKET, SO_SNDBUF, &size, &length)
            return Int(size)
        }
        let listener = try Listener(host: "127.0.0.1", port: 0, maxLineBytes: 1 << 20, maxQueuedBytes: 1 << 20)
        listener.sendBufferBytes = 64 << 10
        let client = try starvedSocket(port: listener.port)
        defer { close(client) }
        var ready = pollfd(fd: listener.fd, events: Int16(POLLIN), revents: 0)
        #expect(poll(&ready, 1, 10_000) == 1)
        let socket = try #require(try listener.accept())
        #expect(sendBuffer(socket.fd) == 2 * (64 << 10))
        // The client reads nothing: 200 kB queued, of which the kernel takes some.
        socket.send([UInt8](repeating: 0x61, count: 200_000) + [0x0A])
        socket.flush()
        let left = socket.pendingBytes
        #expect(left > 0, "the kernel took it all: the test needs some left over")
        #expect(socket.closeAfterDelivering(on: try EventLoop()))
        #expect(socket.pendingBytes == 0, "what was left went into the grown buffer at once")
        #expect(sendBuffer(socket.fd) >= 2 * (64 << 10 + left))
    }

    /// A fatal error is written before the connection closes; but one that cannot be written, to a
    /// client whose buffers are full, must not keep the connection (and its seat in the match's
    /// audience) for ever.
    @Test func aClientTooStuckToReadItsFatalErrorIsClosedAnyway() throws {
        let server = try TestServer {
            $0.limits.idleTimeoutMs = 5_000
            $0.limits.messageBurst = 1_000_000
        }
        defer { server.stop() }
        let (ann, bob) = try startedDuel(server)
        let eve = try stuckSpectator(server, announcedTo: ann)
        try bob.awaitSeq(ann.view!.seq)

        // About 300 kB of events: far more than both kernels hold for eve, far less than her 1 MiB queue.
        let card = ann.view!.table[0]
        var watch = Stopwatch()
        try watch.act(.claim, by: ann, watchedBy: bob)
        for _ in 0..<3_000 { try watch.act(.select(card), by: ann, watchedBy: bob) }
        #expect(ann.view?.spectators == 1, "eve was dropped as a slow consumer; the test needs her queue below the limit")

        // The players keep talking; eve says nothing for 6 s and is told idle_timeout, which she
        // cannot read. A few sweeps later she must be gone all the same.
        for _ in 0..<4 {
            server.advance(by: 3_000)
            try settle(ann)
            try settle(bob)
        }
        #expect(ann.view?.spectators == 0, "the stuck spectator was never closed")
        #expect(bob.view?.spectators == 0)
        let closings = server.logLines.all.filter { $0.contains("closing") && $0.contains("eve") }
        #expect(closings.count == 1, "\(closings)")
        withExtendedLifetime(eve) {}  // her socket stays open, unread, until the server gives up on her
    }

    // MARK: Slowloris, line length, rate, connections

    /// Two slow-drip clients, one with a short line and one whose line is already past the length
    /// limit: bytes keep coming, so they are never idle, but the line never ends. Both are closed
    /// at the first sweep after the line has been open `partialLineTimeoutMs`, and not before.
    @Test func aLineThatNeverEndsIsClosedAfterThePartialLineTimeoutHoweverItDrips() throws {
        let server = try TestServer { $0.limits.idleTimeoutMs = 600_000 }  // only the unfinished line can matter
        defer { server.stop() }
        let control = try greeted(server)
        let short = try greeted(server), long = try greeted(server)
        short.sendRaw("{\"type\":\"pi")
        long.sendRaw([UInt8](repeating: 0x20, count: 5_000))
        try settle(control)  // both lines began at t = 1000
        for _ in 0..<5 {  // t = 3000 ... 11000: the lines are at most 10 s old, the limit itself
            server.advance(by: 2_000)
            try settle(control)
            #expect(!short.hasPendingInput && !long.hasPendingInput, "closed at or before the limit")
            short.sendRaw("n")
            long.sendRaw(" ")
        }
        try settle(control)
        server.advance(by: 1_000)  // 11 s: the next sweep closes both
        for client in [short, long] {
            let error = try client.awaitError(.idleTimeout)
            #expect(error.fatal && error.message == "A line stayed unfinished for 10 s.")
            #expect(client.drainToEndOfStream()?.lines == [], "the connection stayed open")
        }
        try expectOpen(control)
    }

    @Test func aLineOfExactlyMaxLineBytesIsReadAndOneByteMoreIsNot() throws {
        let server = try TestServer { $0.limits.maxLineBytes = 512 }
        defer { server.stop() }
        let client = try greeted(server)
        let ping = "{\"type\":\"ping\",\"time\":5}"
        let padded = ping + String(repeating: " ", count: 512 - ping.utf8.count)
        client.sendRaw(padded + "\n")
        #expect(try client.next("pong") == .pong(time: 1_000, clientTime: 5, id: nil))
        client.sendRaw(padded + " \n")
        #expect(try client.awaitError(.lineTooLong).message == "A line of 513 bytes is over the limit of 512; it was ignored.")
        client.sendRaw(padded + "\r\n")  // the "\r" is removed, and not counted
        #expect(try client.next("pong") == .pong(time: 1_000, clientTime: 5, id: nil))
        client.sendRaw(padded + " \r\n")
        #expect(try client.awaitError(.lineTooLong).message == "A line of 514 bytes is over the limit of 512; it was ignored.")
        try expectOpen(client)
    }

    /// Each connection has its own bucket; what it drops is not carried out; the clock refills it.
    @Test func theRateLimitIsPerConnectionDropsTheActionAndRefillsWithTime() throws {
        let server = try TestServer {
            $0.limits.messageBurst = 5
            $0.limits.messagesPerSecond = 50
        }
        defer { server.stop() }
        let (ann, bob) = try startedDuel(server)  // ann's join spent one of her five
        ann.sendRaw(String(repeating: "{\"type\":\"ping\"}\n", count: 4) + "{\"type\":\"claim\",\"id\":\"c\"}\n")
        for _ in 0..<4 { _ = try ann.waitFor("pong") { if case .pong = $0 { true } else { nil } } }
        let (error, id) = try ann.waitFor("refusal") { if case .error(let error, let id) = $0 { (error, id) } else { nil } }
        #expect(error.code == .rateLimited && !error.fatal)
        #expect(id == .string("c"), "the dropped line's id, echoed: a client can tell which one to send again")
        // bob's bucket is his own, and ann's claim never happened.
        for _ in 0..<3 {
            bob.send(.ping(time: 3))
            #expect(try bob.next("pong") == .pong(time: 1_000, clientTime: 3, id: nil))
        }
        // 100 ms at 50 a second buys ann exactly five more.
        server.advance(by: 100)
        ann.sendRaw(String(repeating: "{\"type\":\"ping\"}\n", count: 6))
        var pongs = 0, limited = 0
        for _ in 0..<6 {
            switch try ann.next("reply") {
            case .pong: pongs += 1
            case .error(let error, _) where error.code == .rateLimited: limited += 1
            default: break
            }
        }
        #expect(pongs == 5 && limited == 1)
        #expect(ann.view?.window == nil && bob.view?.window == nil)
    }

    /// A flood past the rate limit is not read, parsed and answered line by line: ten of the lines
    /// that came with the first one over are answered `rate_limited`, the rest dropped, and the
    /// connection is not read again until half its burst has come back; then it is, as before.
    @Test func aFloodPastTheLimitIsAnsweredTenTimesThenWaitsInTheKernel() throws {
        let server = try TestServer {
            $0.limits.messageBurst = 20
            $0.limits.messagesPerSecond = 50
        }
        defer { server.stop() }
        let client = try TestClient.greeted(port: server.port)
        client.sendRaw(String(repeating: "{\"type\":\"ping\",\"time\":1}\n", count: 300))
        var pongs = 0, limited = 0
        while pongs + limited < 20 + Server.refusalsAnsweredPerRead {
            switch try client.next("reply") {
            case .pong: pongs += 1
            case .error(let error, _) where error.code == .rateLimited: limited += 1
            case let other: Issue.record("unexpected: \(other)")
            }
        }
        #expect(pongs == 20 && limited == Server.refusalsAnsweredPerRead)
        // Half the burst back (200 ms at 50 a second): read again. The first line it reads is this
        // ping (the flood's rest was dropped with the read that held it), and it is answered.
        server.advance(by: 200)
        client.send(.ping(time: 77))
        let next = try client.next("the next reply")
        #expect(next == .pong(time: 1_200, clientTime: 77, id: nil), "\(next)")
        try expectOpen(client)
    }

    @Test func aSlotFreedByALeavingClientGoesToTheNextOne() throws {
        let server = try TestServer { $0.limits.maxConnections = 2 }
        defer { server.stop() }
        var first: TestClient? = try greeted(server)
        let second = try greeted(server)
        _ = try TestClient(port: server.port).awaitError(.serverFull)
        _ = first
        first = nil  // closes its socket
        try settle(second)
        let third = try TestClient(port: server.port)
        guard case .welcome = try third.next("welcome") else {
            Issue.record("the freed slot was not given out: \(third.lastLine ?? "")")
            return
        }
        try expectOpen(third)
    }

    // MARK: A crowd

    /// A thousand connections that only hold their sockets, and a slowloris, do not stop a duel:
    /// it plays to the end, the slowloris is closed on time, and every idle connection still works.
    @Test func aDuelCompletesAmongAThousandIdleConnectionsAndASlowloris() throws {
        let server = try TestServer { $0.perAddress.connections = 2_000 }  // all from 127.0.0.1
        defer { server.stop() }
        var idle: [TestClient] = []
        for _ in 0..<1_000 { idle.append(try TestClient(port: server.port)) }
        for client in idle { guard case .welcome = try client.next("welcome") else { throw ClientTimedOut(waitingFor: "welcome") } }
        let loris = try greeted(server)
        loris.sendRaw("{\"type\":\"join\",\"name\":\"lo")

        let (ann, bob) = try TestClient.duel(server)
        var turn = 0
        while ann.view?.phase == .playing {
            let (actor, other) = turn % 2 == 0 ? (ann, bob) : (bob, ann)
            turn += 1
            try playScriptedTurn(actor, other)
            if turn == 5 {
                // No window is open between turns, so only the slowloris has a timer to miss.
                #expect(ann.view?.window == nil)
                server.advance(by: 11_000)
                let error = try loris.awaitError(.idleTimeout)
                #expect(error.message == "A line stayed unfinished for 10 s.")
            }
            #expect(turn < 200, "the duel did not end")
            if turn >= 200 { break }
        }
        try bob.awaitSeq(ann.view!.seq)
        #expect(ann.view?.phase == .over && ann.view?.result?.reason == .noSetsLeft)
        #expect(bob.view == ann.view)
        for (index, client) in idle.enumerated() {
            client.send(.ping(time: Int64(index)))
            _ = try client.waitFor("pong") { if case .pong(_, Int64(index), _) = $0 { true } else { nil } }
        }
        #expect(loris.drainToEndOfStream()?.lines == [])
    }
}
