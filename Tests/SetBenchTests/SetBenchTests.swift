import Foundation
import SetNet
import SetRules
import SetServer
import SetWire
import SetTestSupport
import Testing
@testable import SetBench

@Suite struct FastFieldsTests {
    @Test func readsTheFieldsTheServerWrites() {
        let line = Array(#"{"cards":[9],"kind":"selection","match":"m","seat":0,"seq":12345,"time":-7,"type":"event"}"#.utf8)
        let fields = FastFields(line)
        #expect(fields.type == "event")
        #expect(fields.kind == "selection")
        #expect(fields.int("seq") == 12_345)
        #expect(fields.int("time") == -7)
        #expect(fields.int("id") == nil)
        #expect(fields.string("type", is: "event"))
        #expect(!fields.string("type", is: "even"))
    }

    @Test func agreesWithTheFullDecoderOnEveryKindOfLine() {
        let lines: [ServerMessage] = [
            .ack(id: 77, seq: 5), .pong(time: 3, clientTime: nil, id: 12), .insight(match: "q", seq: 9, setsOnTable: 2),
            .error(WireError(.rateLimited, "slow down"), id: 4),
        ]
        for message in lines {
            let bytes = Array(ServerMessageCoding.line(message).dropLast())
            let fields = FastFields(bytes)
            guard case .success(let decoded) = ServerMessageCoding.decode(bytes) else { Issue.record("undecodable"); continue }
            #expect(decoded == message)
            switch message {
            case .ack(let id, let seq): #expect(fields.type == "ack" && fields.int("id") == Int(id.intValue!) && fields.int("seq") == seq)
            case .pong(_, _, let id): #expect(fields.type == "pong" && fields.int("id") == Int(id!.intValue!))
            case .insight(_, let seq, _): #expect(fields.type == "insight" && fields.int("seq") == seq)
            case .error(_, let id): #expect(fields.type == "error" && fields.int("id") == Int(id!.intValue!))
            default: break
            }
        }
    }
}

@Suite struct BenchMeasurementTests {
    @Test func percentilesAreNearestRank() {
        let samples = (1...1_000).map { UInt32($0 * 1_000) }  // 1 ms … 1000 ms
        let p = Percentiles(microseconds: samples.shuffled())
        #expect(p.count == 1_000)
        #expect(p.p50 == 500 && p.p99 == 990 && p.p999 == 999 && p.max == 1_000)
        #expect(Percentiles(microseconds: []).p99 == 0)
    }

    @Test func aLatencyEndsWhenTheLastRecipientHasTheEvent() {
        let match = BenchMatch(index: 0, recipients: 3, run: "t")
        #expect(match.arrived(7, at: 1_000_000) == nil)
        #expect(match.acknowledged(7, sentAt: 400_000) == nil, "two recipients still to go")
        #expect(match.arrived(7, at: 1_200_000) == nil)
        #expect(match.arrived(7, at: 1_100_000) == 800, "the latest arrival, 1.2 ms, minus the send, 0.4 ms")
        // Acknowledged after everyone had it: measured at once.
        for time: UInt64 in [2_000_000, 2_500_000, 2_100_000] { _ = match.arrived(8, at: time) }
        #expect(match.acknowledged(8, sentAt: 1_500_000) == 1_000)
    }

    @Test func processStatsComeFromProc() {
        let stat = "4242 (set game) S 1 2 3 4 5 6 7 8 9 10 250 150 0 0 20 0"
        let status = "Name:\tsetgame\nVmHWM:\t  51200 kB\nVmRSS:\t 40000 kB\n"
        #expect(ProcessStats.parse(stat: stat, status: status, ticksPerSecond: 100) == ProcessStats(cpuSeconds: 4, peakRSSMiB: 50))
        #expect(ProcessStats.read(pid: getpid()).map { $0.peakRSSMiB > 0 } == true)
    }
}

/// Runs the load generator against a real in-process server (configured as `serverConfig` says)
/// whose rate limits a load cannot reach.
func loadARealServer(_ serverConfig: ServerConfig = ServerConfig(), _ configure: (inout BenchConfig) -> Void) throws -> LoadResult {
    var serverConfig = serverConfig
    serverConfig.limits.messagesPerSecond = 100_000
    serverConfig.limits.messageBurst = 200_000
    let server = try RunningServer(config: serverConfig)
    defer { server.stop() }
    var config = BenchConfig()
    config.servers = [ServerAddress(port: server.port)]
    configure(&config)
    return try LoadGenerator(config).run()
}

/// A small load through a real server: every action is answered, nothing errs or drops.
@Suite(.serialized) struct LoadGeneratorTests {
    @Test(arguments: [0, 50])
    func aShortRunPlaysCleanly(pace: Int) throws {
        let result = try loadARealServer { config in
            config.matches = 4
            config.spectatorsPerMatch = 1
            config.paceMs = pace
            config.durationSeconds = 0.5
            config.pingIntervalMs = 50
        }
        #expect(result.errors.isEmpty, "\(result.errors)")
        #expect(result.drops == 0)
        #expect(result.connections == 12)
        #expect(result.actions > 0)
        // Every sample is an acknowledged action; the last few may still be on their way at the end.
        #expect(result.actionLatency.count > 0 && result.actionLatency.count <= result.actions)
        #expect(result.eventsDelivered > result.actions)
        #expect(result.pingLatency.count > 0)
    }
}

/// `setgame bench --mode M`: load players play each variant cleanly, finishing games.
@Suite(.serialized) struct VariantLoadTests {
    @Test(arguments: [Variant.junior, .chain, .ultra])
    func aShortRunOfEachVariantPlaysCleanlyAndFinishesGames(variant: Variant) throws {
        let result = try loadARealServer { config in
            config.matches = 3
            config.spectatorsPerMatch = 1
            config.paceMs = 0
            // Waits for a finished game, not for a second of play: a loaded machine may need longer.
            config.durationSeconds = 300
            config.stopAfterGames = 1
            config.variant = variant
        }
        #expect(result.errors.isEmpty, "\(variant): \(result.errors)")
        #expect(result.drops == 0)
        #expect(result.actions > 0)
        #expect(result.gamesCompleted > 0, "\(variant): the load players find every pick of the variant to the end")
    }
}
