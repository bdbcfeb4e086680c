import Foundation
import Glibc
import SetNet
import SetRules
import SetServer
import SetWire
import Testing
@testable import SetScreen
@testable import SetTerminal

/// A client app wired to a real socket: what the terminal shell does, minus the terminal; the
/// socket half is the shell's own (`ClientConnection`).
final class HeadlessClient: ClientConnection {
    var app: ClientApp
    var socket: LineSocket?
    let serverHost = "127.0.0.1"
    let serverPort: UInt16

    init(name: String, role: Role = .player, match: String? = nil, port: UInt16) {
        let options = ClientConfiguration(name: name, match: match, role: role, animation: false)
        app = ClientApp(state: ClientState(options: options, size: TerminalSize(columns: 120, rows: 40)))
        serverPort = port
        perform(app.start(at: Self.now()))
    }

    static func now() -> Int64 { MonotonicTime.rawMilliseconds() }

    func perform(_ effects: [ClientEffect]) {
        for effect in effects {
            switch effect {
            case .connect: connect(at: Self.now())
            case .send(let message): send(message, at: Self.now())
            case .disconnect: disconnect()
            case .saveToken, .log, .quit, .startLocal, .holdLocal: break
            }
        }
    }

    /// One short poll of the socket, handling whatever it brings.
    func pump() {
        guard var entry = pollEntry, poll(&entry, 1, 5) > 0 else { return }
        handleSocket(entry.revents, at: Self.now())
    }

    func input(_ key: Character) {
        perform(app.input(.key(.character(key)), at: Self.now()))
    }
}

@Suite(.serialized) struct ClientProtocolTests {
    /// Pumps every client until `condition` holds; the deadline only guards against a hang.
    func pump(_ clients: [HeadlessClient], until condition: () -> Bool) -> Bool {
        let deadline = HeadlessClient.now() + hangMs
        while !condition() {
            guard HeadlessClient.now() < deadline else { return false }
            for client in clients { client.pump() }
        }
        return true
    }

    @Test func twoPlayersAndASpectatorSeeASetTakenByKeys() throws {
        var config = ServerConfig()
        config.port = 0
        config.seeds = .counting(from: 42)
        let server = try Server(config: config, log: .silent)
        let thread = Thread { server.run() }
        thread.start()
        defer { server.stop() }

        let alice = HeadlessClient(name: "alice", port: server.port)
        #expect(pump([alice]) { alice.app.state.view?.phase == .waiting })
        let bob = HeadlessClient(name: "bob", port: server.port)
        #expect(pump([alice, bob]) { alice.app.state.view?.table.count == 12 && bob.app.state.view?.table.count == 12 })
        let match = try #require(alice.app.state.matchName)
        let watcher = HeadlessClient(name: "carol", role: .spectator, match: match, port: server.port)
        #expect(pump([alice, bob, watcher]) { watcher.app.state.view?.table.count == 12 })
        #expect(watcher.app.state.setsOnTable == nil, "a spectator is never told the live table's count")

        let table = try #require(alice.app.state.view?.table)
        #expect(alice.app.compose(at: HeadlessClient.now()).textLines.contains { $0.contains("alice (you) 0") })
        let trio = try #require(SetLogic.firstSet(in: table))
        let labels = CardLabels(count: table.count)
        // The first key claims and selects in one gesture; the next two only select.
        for card in trio { alice.input(Character(labels.label(for: table.firstIndex(of: card)!)!)) }
        let taken = pump([alice, bob, watcher]) {
            [alice, bob, watcher].allSatisfy { client in
                guard let view = client.app.state.view else { return false }
                return !trio.contains(where: view.table.contains) && view.player(.first)?.score ?? 0 > 0
            }
        }
        #expect(taken, "all three see the set leave the table")
        // The table the set left is no longer live: now the spectator hears how many sets it held.
        #expect(pump([alice, bob, watcher]) { watcher.app.state.setsOnTable == SetLogic.allSets(in: table).count })
        let score = try #require(bob.app.state.view?.player(.first)?.score)
        #expect(bob.app.compose(at: HeadlessClient.now()).textLines[1].contains("alice took a set: +\(score)"))
        #expect(alice.app.compose(at: HeadlessClient.now()).textLines[1].contains("you took a set: +\(score)"))
        #expect(watcher.app.state.view == bob.app.state.view.map { view in
            var same = view
            same.setsOnTable = watcher.app.state.view?.setsOnTable
            return same
        })
    }

    @Test func aDroppedPlayerResumesTheSeatWithItsToken() throws {
        var config = ServerConfig()
        config.port = 0
        let server = try Server(config: config, log: .silent)
        let thread = Thread { server.run() }
        thread.start()
        defer { server.stop() }

        let alice = HeadlessClient(name: "alice", port: server.port)
        let bob = HeadlessClient(name: "bob", port: server.port)
        #expect(pump([alice, bob]) { alice.app.state.view?.phase == .playing && bob.app.state.view?.phase == .playing })
        let seat = alice.app.state.seat
        // The socket dies under alice; the app retries and comes back to the same seat.
        alice.lose("test", at: HeadlessClient.now())
        #expect(pump([bob]) { bob.app.state.view?.players.first { $0.seat == seat }?.present == false })
        let resumed = pump([alice, bob]) {
            if case .lost = alice.app.state.connection { alice.perform(alice.app.tick(at: HeadlessClient.now())) }
            return alice.app.state.connection == .live && bob.app.state.view?.players.allSatisfy(\.present) == true
        }
        #expect(resumed)
        #expect(alice.app.state.seat == seat)
        #expect(alice.app.state.view?.table == bob.app.state.view?.table)
    }
}
