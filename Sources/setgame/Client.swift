import SetCLI
import SetRules
import SetTerminal
import SetWire

/// `setgame join` and `setgame watch`.
func join(_ options: JoinOptions) -> Int32 {
    var client = ClientOptions(
        host: options.server.host, port: options.server.port, name: options.name ?? ClientOptions.loginName(),
        match: options.match, mode: options.solo ? .solo : .duel, role: options.spectator ? .spectator : .player,
        colorblind: options.colorblind, animation: options.animation)
    client.command = invocationCommand()
    client.variant = options.variant
    if let match = options.match, !options.spectator {
        client.watchCommand = "\(client.command) watch \(options.server.host):\(options.server.port) \(match)"
    }
    return TerminalClient.run(client)
}
