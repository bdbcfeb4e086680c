import Foundation
import SetClient
import SetNet
import SetRules
import SetServer
import SetTestSupport
import SetWire
import Testing
@testable import SetLocal
@testable import SetScreen
@testable import SetTerminal

/// A local solo game as `setgame play --solo` wires it (the local match `LocalGame.localMatch`
/// builds, the configuration the terminal client gives the app, the client's own driver and the
/// shell's performer of local effects), minus the terminal, on a clock the test moves.
final class HeadlessSoloGame {
    let kept: KeptGame
    let table: LocalTable
    let driver: ClientDriver<ClientApp>
    let clock = ManualTime(1_000)
    let loop: EventLoop

    init(state: String, seed: UInt64, player: String = "sol") throws {
        var options = PlayOptions()
        options.solo = true
        options.seed = seed
        kept = KeptGame(stateDirectory: state, mode: .solo, player: player)
        table = try LocalTable.open(kept, store: SeatTokenStore(directory: state),
                                    config: LocalGame.serverConfig(options, daily: nil), log: .silent)
        var client = ClientOptions(port: table.port, name: player, match: kept.match, mode: .solo, role: .player, animation: false)
        client = LocalGame.localMatch(options, kept: kept, start: nil, again: "setgame play --solo", onStart: {}, onHold: { _ in },
                                     client: client)
        loop = try EventLoop()
        let app = ClientApp(state: ClientState(options: TerminalClient.appOptions(client), size: TerminalSize(columns: 80, rows: 24),
                                               token: table.playerToken))
        driver = ClientDriver(app: app, loop: loop, clock: clock, host: "127.0.0.1", port: table.port)
        let local = client.local
        driver.onEffect = { TerminalClient.performLocal($0, of: local) }
        driver.start()
    }

    var view: MatchView? { driver.app.state.view }

    /// Plays to the game's end: every set taken one second after its table showed (a solo set
    /// stays on show until the next touch, which deals in its place); a table without one is
    /// dealt over. Returns how many sets were taken.
    func playToTheEnd() -> Int {
        #expect(runLoop(loop) { self.view?.table.isEmpty == false })
        var taken = 0
        while let now = view, now.phase != .over {
            if let trio = now.combinations.first {
                driver.send(driver.app.state.session.request(.select(trio[0])))
                #expect(runLoop(loop) { self.view?.selection == [trio[0]] })
                clock.advance(by: 1_000)
                for card in trio.dropFirst() { driver.send(driver.app.state.session.request(.select(card))) }
                taken += 1
                #expect(runLoop(loop) { self.view.map { $0.phase == .over || $0.shown == Match.ShownTrio(cards: trio, isSet: true) } ?? false })
            } else {
                let deck = now.deck
                if deck > 0 { driver.send(driver.app.state.session.request(.deal)) }
                #expect(runLoop(loop) { self.view.map { $0.phase == .over || $0.deck < deck } ?? false })
            }
        }
        return taken
    }

    func stop() {
        driver.disconnect()
        table.stop()
    }
}
