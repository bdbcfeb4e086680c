import Foundation
import Glibc

/// The process's environment, and the folder where setgame keeps what it must remember (seat
/// tokens, kept games, match journals): one reader and one rule for the client, `play` and
/// `serve`. Functions take the environment as a parameter, so tests can pass their own.
package enum ProcessEnvironment {
    /// The environment variables of this process.
    package static var variables: [String: String] { ProcessInfo.processInfo.environment }

    /// `$XDG_STATE_HOME/setgame`, else `~/.local/state/setgame`, else a folder of this user's under
    /// /tmp. Relative paths are ignored, as the XDG base directory rules say. The /tmp folder is
    /// only a name: another user may have made it first, so whoever keeps files there checks it
    /// (`PrivateFolder`; a server's data folder in it is refused then).
    package static func stateFolder(environment: [String: String] = variables) -> String {
        if let state = environment["XDG_STATE_HOME"], state.hasPrefix("/") { return state + "/setgame" }
        if let home = environment["HOME"], home.hasPrefix("/") { return home + "/.local/state/setgame" }
        return "/tmp/setgame-\(getuid())"
    }
}
