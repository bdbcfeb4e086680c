import Foundation
import SetCLI
import SetNet
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

/// How this program was started, for the commands it prints (see `Invocation`).
func invocationCommand() -> String {
    Invocation.command(argv0: CommandLine.arguments.first ?? "setgame", path: ProcessEnvironment.variables["PATH"],
                       currentDirectory: FileManager.default.currentDirectoryPath) { path in
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }
}
