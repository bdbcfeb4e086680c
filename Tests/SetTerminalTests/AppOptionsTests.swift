import Foundation
import SetClient
import SetRules
import SetWire
import Testing
@testable import SetScreen
@testable import SetTerminal

/// The one `ClientOptions` from the command line to the join: what the terminal adds from the
/// machine (NO_COLOR, the account key), and the session joining with the options the screen has.
@Suite struct AppOptionsTests {
    static func folder() -> String { "/tmp/setgame-app-options-\(UInt32.random(in: 0...UInt32.max))" }

    @Test func noColorInTheEnvironmentTakesTheColourAway() {
        let options = ClientOptions(name: "ann", role: .spectator)
        #expect(TerminalClient.appOptions(options, environment: ["NO_COLOR": "1"]).noColor)
        #expect(!TerminalClient.appOptions(options, environment: ["NO_COLOR": ""]).noColor, "an empty NO_COLOR asks nothing")
        #expect(!TerminalClient.appOptions(options, environment: [:]).noColor)
        var door = options
        door.noColor = true
        #expect(TerminalClient.appOptions(door, environment: [:]).noColor, "the door menu's choice of none stays")
        #expect(!TerminalClient.appOptions(options, environment: ["NO_COLOR": "1"]).theme.usesColor)
    }

    @Test func aPlayerKeepsAnAccountKeyPerServerAndALocalGameOrASpectatorNone() throws {
        let folder = Self.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let player = ClientOptions(host: "127.0.0.1", port: 7400, name: "ann", stateDirectory: folder)
        let account = TerminalClient.appOptions(player, environment: [:]).account
        #expect(account != nil)
        #expect(TerminalClient.appOptions(player, environment: [:]).account == account, "the same key next time")
        var elsewhere = player
        elsewhere.port = 7401
        #expect(TerminalClient.appOptions(elsewhere, environment: [:]).account != account)
        var local = player
        local.local = LocalMatch(onStart: {}, onHold: { _ in })
        #expect(TerminalClient.appOptions(local, environment: [:]).account == nil)
        var spectator = player
        spectator.role = .spectator
        #expect(TerminalClient.appOptions(spectator, environment: [:]).account == nil)
    }

    /// The join carries what the options say, with nothing copied field by field on the way.
    @Test func theJoinCarriesTheOptionsTheScreenHas() throws {
        var options = ClientOptions(name: "ann", match: "friday", variant: .chain)
        options.account = "key-1"
        options.casual = true
        var app = ClientApp(state: ClientState(options: options, size: TerminalSize(columns: 80, rows: 24)))
        #expect(app.state.session.options == options)
        _ = app.start(at: 0)
        _ = app.connected(at: 0)
        let effects = app.receive(.welcome(server: "t", versions: [1], time: 1_000, limits: ServerLimits()), at: 0)
        let joins = effects.compactMap { effect -> JoinRequest? in
            if case .send(.join(let request)) = effect { request } else { nil }
        }
        let join = try #require(joins.first)
        #expect(join.name == "ann" && join.match == "friday" && join.variant == .chain)
        #expect(join.account == "key-1" && join.casual && !join.bot)
    }
}
