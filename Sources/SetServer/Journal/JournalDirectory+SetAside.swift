import Foundation
import Glibc

// Setting files aside in `damaged/`: under a name no earlier file has, and with a log line that
// says where the file really is.
extension JournalDirectory {
    /// Moves `file` into `damaged/`; `saying` tells the log what is wrong with it. Returns where it
    /// went, or nil if it could not be moved, which the log then says instead.
    @discardableResult
    func setAside(_ file: String, saying problem: String) -> String? {
        let name = String(file.split(separator: "/").last ?? "")
        let aside = Self.unused("\(damagedPath)/\(name).\(wallSeconds())", "")
        do {
            try FileManager.default.moveItem(atPath: file, toPath: aside)
        } catch {
            log("\(problem); it could not be moved to \(damagedPath) (\(error)), so it stays where it is")
            return nil
        }
        log("\(problem); moved to \(aside)")
        return aside
    }

    /// `stem + suffix` if nothing has that name, else the first free of `stem-2`, `stem-3`, …
    /// (each with `suffix`): two files set aside in one second are both kept. The folder's lock
    /// keeps any other server from taking the name in between.
    static func unused(_ stem: String, _ suffix: String) -> String {
        var target = stem + suffix, attempt = 1
        var info = stat()
        while lstat(target, &info) == 0 {  // a dangling link counts as taken too
            attempt += 1
            target = "\(stem)-\(attempt)\(suffix)"
        }
        return target
    }
}
