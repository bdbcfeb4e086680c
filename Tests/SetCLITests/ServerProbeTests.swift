import Foundation
import SetCLI
import SetNet
import SetServer
import SetTestSupport
import SetWire
import Testing

/// `setgame serve --check --address HOST:PORT [--alive]`: the probe an orchestrator runs, over
/// a real socket to a real server.
@Suite(.serialized) struct ServerProbeTests {
    static func probe(_ port: UInt16, _ question: ProbeQuestion) -> ServerProbe {
        ServerProbe(address: ServerAddress(host: "127.0.0.1", port: port), question: question)
    }

    @Test func theProbeIsParsedOnlyWithCheck() throws {
        guard case .serve(let options) = try Commands.parse(["serve", "--check", "--address", "127.0.0.1:7399", "--alive"]) else {
            Issue.record("not serve"); return
        }
        #expect(options.probe == Self.probe(7399, .alive))
        guard case .serve(let ready) = try Commands.parse(["serve", "--check", "--address", "10.0.0.7"]) else { Issue.record("not serve"); return }
        #expect(ready.probe == ServerProbe(address: ServerAddress(host: "10.0.0.7", port: 7380), question: .ready))
        guard case .serve(let plain) = try Commands.parse(["serve", "--check"]) else { Issue.record("not serve"); return }
        #expect(plain.probe == nil && plain.check)
        #expect(throws: UsageError("--address needs --check: it asks a running server", command: "serve")) {
            try Commands.parse(["serve", "--address", "127.0.0.1:7380"])
        }
        #expect(throws: UsageError("--alive needs --check --address HOST:PORT", command: "serve")) {
            try Commands.parse(["serve", "--check", "--alive"])
        }
    }

    @Test func aServingServerIsReadyAndAlive() throws {
        let server = try TestServer { $0.store = .memory }
        defer { server.stop() }
        #expect(Self.probe(server.port, .ready).ask() == .init(passed: true, line: "ready: store ok"))
        #expect(Self.probe(server.port, .alive).ask() == .init(passed: true, line: "alive: 127.0.0.1:\(server.port) answers"))
    }

    @Test func aServerWhosePostgresIsDownIsAliveButNotReady() throws {
        guard ThrowawayPostgres.binaries != nil else {
            if ProcessInfo.processInfo.environment["SETGAME_REQUIRE_POSTGRES"] == "1" { Issue.record("PostgreSQL is required but not installed") }
            print("note: PostgreSQL is not installed: the store-down probe test is passed over")
            return
        }
        let postgres = try ThrowawayPostgres.start()
        defer { postgres.stop() }
        let server = try TestServer { $0.store = .postgres(postgres.url) }
        defer { server.stop() }
        #expect(Self.probe(server.port, .ready).ask().passed)
        postgres.stop()
        server.advance(by: 1_000)  // past the last probe's answer, which stands for a second
        #expect(Self.probe(server.port, .ready).ask() == .init(passed: false, line: "not ready: store unavailable"))
        #expect(Self.probe(server.port, .alive).ask().passed)
    }

    @Test func nobodyListeningOrNobodyAnsweringIsNotReady() throws {
        let server = try TestServer()
        let port = server.port
        server.stop()
        let refused = Self.probe(port, .ready).ask()
        #expect(!refused.passed && refused.line.hasPrefix("not ready: cannot reach 127.0.0.1:\(port)"), "\(refused.line)")

        // A listening socket nobody accepts from: the connection is made, no line ever comes.
        let silent = try Listener(host: "127.0.0.1", port: 0, maxLineBytes: 4_096, maxQueuedBytes: 1 << 16)
        var quiet = Self.probe(silent.port, .alive)
        quiet.timeoutMs = 100
        #expect(quiet.ask() == .init(passed: false, line: "not ready: no answer from 127.0.0.1:\(silent.port) within 100 ms"))
        withExtendedLifetime(silent) {}
    }

    @Test func aFullServerIsAliveButNotReady() {
        let probe = Self.probe(7380, .ready)
        let full = ServerMessage.error(WireError(.serverFull, "The server is full.", fatal: true), id: nil)
        #expect(probe.verdict(after: full) == .init(passed: false, line: "not ready: server_full: The server is full."))
        #expect(Self.probe(7380, .alive).verdict(after: .welcome(server: "setgame", versions: [1], time: 0, limits: ServerLimits()))?.passed == true)
        #expect(probe.verdict(after: .welcome(server: "setgame", versions: [1], time: 0, limits: ServerLimits())) == nil, "ready waits for health")
    }
}
