import Foundation
import Glibc
import SetBot
import SetNet
import SetRules
import SetServer
import SetWire
import Testing

/// Two instant bots play a whole duel through a real server while a spectator watches.
@Suite(.serialized) struct BotDuelTests {
    /// A blocking spectator that reads until the first game is over; also counts how many times
    /// the table changed (deals and taken sets): the bots' chances to race.
    func watchUntilOver(port: UInt16, match: String) throws -> (view: MatchView, tableChanges: Int)? {
        var tableChanges = 0
        let fd = try Sockets.connect(host: "127.0.0.1", port: port)
        defer { close(fd) }
        Sockets.setReceiveTimeout(fd, milliseconds: 30_000)
        var reader = LineReader(maxLineBytes: 1 << 20)
        var join = ClientMessageEncoder.line(ClientRequest(.join(JoinRequest(role: .spectator, name: "eve", match: match))))
        _ = join.withUnsafeMutableBytes { write(fd, $0.baseAddress, $0.count) }
        var view: MatchView?
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            guard count > 0 else { return view.map { ($0, tableChanges) } }
            for case .text(let text) in reader.feed(buffer[0..<count]) {
                switch ServerMessageCoding.decode(Array(text.utf8)) {
                case .success(.snapshot(let snapshot)): view = snapshot
                case .success(.insight(_, _, let sets)): view?.setsOnTable = sets
                case .success(.event(let event)):
                    #expect(view?.apply(event) == true)
                    if case .rules(.tableChanged) = event.body { tableChanges += 1 }
                    if case .gameOver = event.body { return view.map { ($0, tableChanges) } }
                default: break
                }
            }
        }
    }

    @Test func twoInstantBotsPlayToTheEndAndTheSpectatorAgrees() throws {
        var config = ServerConfig()
        config.port = 0
        config.seeds = .counting(from: 7)
        let log = ServerLogLines()
        let server = try Server(config: config, log: log.log)
        let serverDone = DispatchSemaphore(value: 0)
        Thread.detachNewThread { server.run(); serverDone.signal() }
        defer { server.stop(); serverDone.wait() }

        let runner = try BotRunner()
        for (index, name) in ["left", "right"].enumerated() {
            var options = BotOptions()
            options.port = server.port
            options.match = "bots"
            options.level = .instant
            options.name = name
            options.seed = UInt64(index)
            options.asksForRematch = false
            try runner.add(options)
        }
        let runnerDone = DispatchSemaphore(value: 0)
        Thread.detachNewThread { runner.run(); runnerDone.signal() }

        let (watched, tableChanges) = try #require(try watchUntilOver(port: server.port, match: "bots"))
        #expect(tableChanges >= 20)
        let truth = try #require(try snapshot(port: server.port, match: "bots"))
        runner.stop()
        runnerDone.wait()
        #expect(watched.phase == .over)
        #expect(watched.result?.reason == .noSetsLeft)
        #expect(watched.seed == 7)
        #expect(watched.deck == 0 && !SetLogic.anySet(in: watched.table))
        #expect(watched.players.map(\.score).reduce(0, +) > 0)
        #expect(watched.setsOnTable == 0)
        // An honest bot is refused only when it loses a race for a table: at most its claim and three picks.
        #expect(runner.errorsReceived <= 4 * tableChanges, "\(runner.errorsReceived) errors for \(tableChanges) tables")
        let views = runner.views.compactMap { $0 }
        #expect(views.count == 2)
        for view in views + [truth] {
            // Later events can only be spectators coming and going.
            #expect(view.seq >= watched.seq && view.seq <= watched.seq + 3)
            #expect(view.table == watched.table && view.players.map(\.score) == watched.players.map(\.score))
            #expect(view.result == watched.result && view.seed == watched.seed && view.phase == .over)
        }
        #expect(views[0].asPlayerSees == views[1].asPlayerSees)
        #expect(views[0].asPlayerSees.tableChangedAt == watched.tableChangedAt)
    }

    func snapshot(port: UInt16, match: String) throws -> MatchView? {
        let fd = try Sockets.connect(host: "127.0.0.1", port: port)
        defer { close(fd) }
        Sockets.setReceiveTimeout(fd, milliseconds: 10_000)
        var reader = LineReader(maxLineBytes: 1 << 20)
        var join = ClientMessageEncoder.line(ClientRequest(.join(JoinRequest(role: .spectator, name: "zed", match: match))))
        _ = join.withUnsafeMutableBytes { write(fd, $0.baseAddress, $0.count) }
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            guard count > 0 else { return nil }
            for case .text(let text) in reader.feed(buffer[0..<count]) {
                if case .success(.snapshot(let view)) = ServerMessageCoding.decode(Array(text.utf8)) { return view }
            }
        }
    }
}

extension MatchView {
    /// Without what only spectators see, and without the spectator count, which a late joiner changes.
    var asPlayerSees: MatchView {
        var copy = self
        copy.setsOnTable = nil
        copy.spectators = 0
        return copy
    }
}
