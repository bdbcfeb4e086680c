import Foundation
/// How the user started this program, so every command it prints works when typed as printed, in
/// any folder: `setgame` when that name on PATH is this very binary, else the binary's full path
/// (under `swift run` too: "swift run setgame" works only in the package's folder, and a friend
/// told to watch types it in their own). A binary SwiftPM built is named through its shorter
/// `.build/CONFIG` link when that leads to it: the watch command then fits an 80-column line.
package enum Invocation {
    /// The command word(s) to print in front of a subcommand.
    /// - Parameters:
    ///   - argv0: the program's `argv[0]`.
    ///   - path: `$PATH`.
    ///   - currentDirectory: the working directory, absolute.
    ///   - resolve: the canonical path of a file (following links), or nil when there is none.
    package static func command(argv0: String, path: String?, currentDirectory: String,
                               resolve: (String) -> String?) -> String {
        let absolute = argv0.hasPrefix("/") ? argv0 : currentDirectory + "/" + argv0
        let binary = resolve(absolute) ?? absolute
        if !argv0.contains("/") { return argv0 }
        for folder in (path ?? "").split(separator: ":") where folder.hasPrefix("/") {
            if let found = resolve("\(folder)/setgame"), found == binary { return "setgame" }
        }
        let shown = shortened(binary, resolve: resolve)
        return shown.contains(" ") ? "'\(shown)'" : shown
    }

    /// `ROOT/.build/CONFIG/setgame` for `ROOT/.build/TRIPLE/CONFIG/setgame` when the former leads
    /// to this very binary (SwiftPM links `.build/debug` to the triple's folder); else `binary`.
    static func shortened(_ binary: String, resolve: (String) -> String?) -> String {
        let parts = binary.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count >= 5, parts[parts.count - 4] == ".build" else { return binary }
        let short = (parts[0..<(parts.count - 3)] + parts[(parts.count - 2)...]).joined(separator: "/")
        return resolve(short) == binary ? short : binary
    }
}
