import Foundation
import SetClient
import SetNet
import SetScreen
import SetWire

/// `setgame join` without a match: the lobby first (who is here, challenges, open seats, live
/// duels), then the game it led to in the same terminal, as `join` runs any game. A seat kept
/// from a dropped game is taken back at once, as before, and `join --match` never sees the lobby.
package enum LobbyClient {
    /// Whether `join` shows the lobby: a duel player naming no match, with no seat kept for
    /// this command (a rerun after a drop goes straight back to it), outside a local game and the door.
    package static func showsLobby(_ options: ClientOptions, keptToken: String?) -> Bool {
        options.role == .player && options.mode == .duel && options.match == nil && options.local == nil
            && options.route == nil && keptToken == nil
    }

    /// The client's options for the game the lobby led to, and the seat token to keep for it
    /// first (an accepted challenge's); nil when the player left the lobby.
    /// `watchCommand` says how a friend watches a named match (`join --match`'s own line).
    package static func game(after outcome: LobbyOutcome, from options: ClientOptions,
                             watchCommand: (String) -> String?) -> (options: ClientOptions, token: String?)? {
        var next = options
        switch outcome {
        case .quit, .failed: return nil
        case .quickDuel: return (next, nil)
        case .join(let match):
            next.match = match
            next.watchCommand = watchCommand(match)
            return (next, nil)
        case .play(let match, let token, _):
            // The match plays the challenge's variant; the token alone takes the seat.
            next.match = match
            next.variant = nil
            next.watchCommand = watchCommand(match)
            // Its seat is the challenge's alone: a token refused for good ends the game, no public seat.
            next.reservedSeat = true
            return (next, token)
        case .watch(let match):
            next.role = .spectator
            next.match = match
            next.variant = nil
            next.watchCommand = nil
            return (next, nil)
        }
    }

    /// Runs `join`: the lobby when `showsLobby`, then the game; returns the exit status.
    package static func join(_ options: ClientOptions, watchCommand: (String) -> String?) -> Int32 {
        let directory = options.resolvedStateDirectory
        try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let store = SeatTokenStore(directory: directory)
        guard showsLobby(options, keptToken: store.token(for: options.seatKey)), TerminalSession.hasTerminal else {
            return TerminalClient.run(options)
        }
        let account = TerminalClient.appOptions(options).account
        let lobby = LobbyApp(me: options.name, account: account, variant: options.variant ?? .classic)
        let (outcome, session) = LobbyTerminal.run(lobby, at: .tcp(host: options.host, port: options.port), logPath: directory + "/client.log",
                                        showsLogPath: options.showsLogPath)
        if case .failed(let message) = outcome {
            TerminalClient.printWrapped([ServerText.printable(message)], to: STDERR_FILENO, command: options.command)
            return 1
        }
        guard let (next, token) = game(after: outcome, from: options, watchCommand: watchCommand) else { return 0 }
        if let token { store.set(token, for: next.seatKey) }
        // An accepted challenge goes on with the lobby's session (its token, the lobby's node).
        guard case .play = outcome else { return TerminalClient.run(next) }
        return TerminalClient.run(next, continuing: session)
    }
}
