import SetCLI
import SetRules
import SetTerminal
import SetWire

/// `setgame join` and `setgame watch`.
func join(_ options: JoinOptions) -> Int32 {
    TerminalClient.run(ClientOptions(
        host: options.server.host, port: options.server.port, name: options.name ?? ClientOptions.loginName(),
        match: options.match, mode: options.solo ? .solo : .duel, role: options.spectator ? .spectator : .player,
        colorblind: options.colorblind, animation: options.animation, variant: options.variant))
}
