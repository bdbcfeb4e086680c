import Foundation
/// How the user started this program, so every command it prints works when typed as printed:
/// `setgame` when that name on PATH is this very binary, `swift run setgame` when it runs from the
/// build folder of the package in the current directory, else the binary's full path.
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
        if let build = binary.range(of: "/.build/"), String(binary[..<build.lowerBound]) == (resolve(currentDirectory) ?? currentDirectory) {
            return "swift run setgame"
        }
        return binary.contains(" ") ? "'\(binary)'" : binary
    }
}
