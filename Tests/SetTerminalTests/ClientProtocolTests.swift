import Foundation
import Glibc
import SetNet
import SetClient
import SetRules
import SetServer
import SetWire
import SetTestSupport
import Testing
@testable import SetScreen
@testable import SetTerminal

/// A client app wired to a real socket on the shell's own driver (`ClientDriver`), minus the
/// terminal; its time is a clock the test moves.
final class HeadlessClient {
    let driver: ClientDriver<ClientApp>
    let clock: ManualTime

    init(name: String, role: Role = .player, match: String? = nil, port: UInt16, loop: EventLoop, clock: ManualTime) {
        let options = ClientOptions(name: name, match: match, role: role, animation: false)
        self.clock = clock
        driver = ClientDriver(app: ClientApp(state: ClientState(options: options, size: TerminalSize(columns: 120, rows: 40))),
                              loop: loop, clock: clock, host: "127.0.0.1", port: port)
        driver.start()
    }

    var app: ClientApp { driver.app }
    var now: Int64 { driver.now }

    func input(_ key: Character) {
        driver.update { $0.input(.key(.character(key)), at: $1) }
    }
}

@Suite(.serialized) struct ClientProtocolTests {
    let loop: EventLoop
    let clock = ManualTime(1_000)

    init() throws { loop = try EventLoop() }

    /// Runs the clients' loop until `condition` holds.
    func pump(until condition: () -> Bool) -> Bool { runLoop(loop, until: condition) }

    func client(_ name: String, role: Role = .player, match: String? = nil, port: UInt16) -> HeadlessClient {
        HeadlessClient(name: name, role: role, match: match, port: port, loop: loop, clock: clock)
    }

    @Test func twoPlayersAndASpectatorSeeASetTakenByKeys() throws {
        var config = ServerConfig()
        config.port = 0
        config.seeds = .counting(from: 42)
        let server = try RunningServer(config: config)
        defer { server.stop() }
        let port = server.port

        let alice = client("alice", port: port)
        #expect(pump { alice.app.state.view?.phase == .waiting })
        let bob = client("bob", port: port)
        #expect(pump { alice.app.state.view?.table.count == 12 && bob.app.state.view?.table.count == 12 })
        let match = try #require(alice.app.state.matchName)
        let watcher = client("carol", role: .spectator, match: match, port: port)
        #expect(pump { watcher.app.state.view?.table.count == 12 })
        #expect(watcher.app.state.setsOnTable == nil, "a spectator is never told the live table's count")

        let table = try #require(alice.app.state.view?.table)
        #expect(alice.app.compose(at: alice.now).textLines.contains { $0.contains("alice (you) 0") })
        let trio = try #require(SetLogic.firstSet(in: table))
        let labels = CardLabels(count: table.count)
        // The first key claims and selects in one gesture; the next two only select.
        for card in trio { alice.input(Character(labels.label(for: table.firstIndex(of: card)!)!)) }
        let taken = pump {
            [alice, bob, watcher].allSatisfy { client in
                guard let view = client.app.state.view else { return false }
                return !trio.contains(where: view.table.contains) && view.player(.first)?.score ?? 0 > 0
            }
        }
        #expect(taken, "all three see the set leave the table")
        // The table the set left keeps nine cards on the live one: while the game is on, the
        // spectator hears no count of it either (only once the game is over).
        #expect(watcher.app.state.setsOnTable == nil, "a retired table's count tells of the live one")
        let score = try #require(bob.app.state.view?.player(.first)?.score)
        #expect(bob.app.compose(at: alice.now).textLines[1].contains("alice took a set: +\(score)"))
        #expect(alice.app.compose(at: alice.now).textLines[1].contains("you took a set: +\(score)"))
        #expect(watcher.app.state.view == bob.app.state.view.map { view in
            var same = view
            same.setsOnTable = watcher.app.state.view?.setsOnTable
            return same
        })
    }

    @Test func aDroppedPlayerResumesTheSeatWithItsToken() throws {
        var config = ServerConfig()
        config.port = 0
        let server = try RunningServer(config: config)
        defer { server.stop() }
        let port = server.port

        let alice = client("alice", port: port)
        let bob = client("bob", port: port)
        #expect(pump { alice.app.state.view?.phase == .playing && bob.app.state.view?.phase == .playing })
        let seat = alice.app.state.seat
        // The socket dies under alice; the app retries and comes back to the same seat.
        alice.driver.lose("test")
        #expect(pump { bob.app.state.view?.players.first { $0.seat == seat }?.present == false })
        let resumed = pump {
            if case .lost(_, let retryAt, _) = alice.app.state.connection {
                clock.set(retryAt)
                alice.driver.tick()
            }
            return alice.app.state.connection == .live && bob.app.state.view?.players.allSatisfy(\.present) == true
        }
        #expect(resumed)
        #expect(alice.app.state.seat == seat)
        #expect(alice.app.state.view?.table == bob.app.state.view?.table)
    }
}
