import Glibc

/// The `damaged/` folder of a data folder, where a file the server cannot trust is set aside
/// rather than deleted or loaded: under a name no earlier file has, with a note for the log
/// that says why and where the file really is.
package struct DamagedFiles: Sendable {
    /// The folder files are moved into (it must exist).
    package let folder: String
    /// Wall-clock seconds, for the names of files set aside; tests fix it.
    package var wallSeconds: @Sendable () -> Int

    package init(folder: String, wallSeconds: @escaping @Sendable () -> Int) {
        self.folder = folder
        self.wallSeconds = wallSeconds
    }

    /// What became of a file set aside.
    package enum Outcome: Sendable {
        /// It is at this path now.
        case moved(to: String)
        /// It could not be moved, and stays where it was.
        case stayed(SystemCallError)

        /// Where it went, or nil if it stayed.
        package var destination: String? {
            if case .moved(let path) = self { path } else { nil }
        }
    }

    /// Moves `file` into the folder, as `NAME.SECONDS` (or `NAME.SECONDS-2`, … when a file set
    /// aside in the same second has that name).
    package func setAside(_ file: String) -> Outcome {
        let name = String(file.split(separator: "/").last ?? "")
        let aside = Self.unused("\(folder)/\(name).\(wallSeconds())", "")
        guard case .done = SystemCall.run({ Int(rename(file, aside)) }) else { return .stayed(SystemCallError("rename")) }
        return .moved(to: aside)
    }

    /// The log's note for a file set aside with `outcome`, `problem` being what is wrong with it.
    package func note(_ problem: String, _ outcome: Outcome) -> String {
        switch outcome {
        case .moved(let aside): "\(problem); moved to \(aside)"
        case .stayed(let error): "\(problem); it could not be moved to \(folder) (\(error)), so it stays where it is"
        }
    }

    /// `stem + suffix` if nothing has that name, else the first free of `stem-2`, `stem-3`, …
    /// (each with `suffix`): two files set aside in one second are both kept. The data folder's
    /// lock keeps any other server from taking the name in between.
    package static func unused(_ stem: String, _ suffix: String) -> String {
        var target = stem + suffix, attempt = 1
        var info = stat()
        while lstat(target, &info) == 0 {  // a dangling link counts as taken too
            attempt += 1
            target = "\(stem)-\(attempt)\(suffix)"
        }
        return target
    }
}
