import SetRules
import SetWire
import Testing
@testable import SetScreen

/// Values a hostile server could have put in a view (times at the ends of `Int64`) draw without
/// trapping; the same server over a socket is in SetTerminalTests' `HostileServerClientTests`.
@Suite struct HostileViewTests {
    @Test func extremeValuesAlreadyInAViewDrawWithoutTrapping() {
        var view = ClientFixtures.view()
        view.window = Window(kind: .secondChance, holder: .second, opened: Instant(milliseconds: 4_000_000_000_000_000_000),
                             deadline: Instant(milliseconds: 4_000_000_000_000_000_000))
        var app = ClientFixtures.app(view)
        _ = app.receive(.pong(time: 1_000, clientTime: .min, id: nil), at: 10_000)
        _ = app.receive(.welcome(server: "x", versions: [1], time: .min, limits: ServerLimits()), at: 10_000)
        #expect(app.compose(at: 10_000).textLines[1].contains("second chance"))
        view.window = Window(kind: .claim, holder: .first, opened: Instant(milliseconds: .min), deadline: Instant(milliseconds: .max))
        view.forfeitAt = .max
        app = ClientFixtures.app(view)
        #expect(app.compose(at: 10_000).textLines[1].contains("Spot a set") == false)
        view.players[1].present = false
        app = ClientFixtures.app(view)
        #expect(app.compose(at: 0).textLines[1].contains("forfeit in"))
        app.state.connection = .lost(reason: "x", retryAt: .max, attempt: 0)
        #expect(app.compose(at: 10_000).textLines[1].contains("retrying"))
    }
}
