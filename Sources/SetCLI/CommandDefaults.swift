import Foundation
import SetBot
import SetClient
import SetNet
import SetServer
import SetTerminal

/// What the command line's defaults are drawn from besides the arguments: how the program was
/// started, the state folder, the login name and the clock. `Commands.parse` takes them as a value,
/// so it stays a pure function and its tests pin every default.
package struct CommandDefaults: Equatable, Sendable {
    /// How this program was started ("setgame", or the binary's full path), for the commands it prints.
    package var command: String
    /// Where state is kept; `serve` keeps its journals in `matches` inside it.
    package var stateFolder: String
    /// A player's name when `--name` is not given.
    package var loginName: String
    /// Seeds a bot's decisions when `--seed` is not given.
    package var clockSeed: UInt64

    package init(command: String, stateFolder: String, loginName: String, clockSeed: UInt64) {
        self.command = command
        self.stateFolder = stateFolder
        self.loginName = loginName
        self.clockSeed = clockSeed
    }

    /// This process's: its `argv[0]` and `$PATH`, `$XDG_STATE_HOME` or `$HOME`, `$USER`, and the clock.
    package static func current() -> CommandDefaults {
        let environment = ProcessEnvironment.variables
        let command = Invocation.command(argv0: CommandLine.arguments.first ?? "setgame", path: environment["PATH"],
                                         currentDirectory: FileManager.default.currentDirectoryPath) { path in
            guard let resolved = realpath(path, nil) else { return nil }
            defer { free(resolved) }
            return String(cString: resolved)
        }
        return CommandDefaults(command: command, stateFolder: ProcessEnvironment.stateFolder(environment: environment),
                               loginName: ClientOptions.loginName(environment: environment),
                               clockSeed: UInt64(truncatingIfNeeded: MonotonicTime.rawNanoseconds()))
    }

    // The policy for what the user left out, in one place.

    /// `serve` keeps journals here unless `--data` says otherwise: they survive a restart by default.
    package var dataDirectory: String { stateFolder + "/matches" }

    /// A connection may send this many messages at once: twice its rate per second.
    package static func messageBurst(forRate messagesPerSecond: Int) -> Int { messagesPerSecond * 2 }

    /// A bot is named after its level, so a player sees whom they face.
    package static func botName(_ level: BotLevel) -> String { "bot-\(level.rawValue)" }

    /// How a friend watches the match a player names (`join --match`); a player pairing with
    /// whoever is waiting has no match name to give.
    package func watchCommand(host: String, port: UInt16, match: String) -> String {
        "\(command) watch \(host):\(port) \(match)"
    }
}
