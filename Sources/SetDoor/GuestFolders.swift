import Foundation
import Glibc

/// The folders guests' sessions keep their client log in, one per door process, named after its
/// pid. A session ended by SIGHUP (the ssh client vanished) dies by the signal before it can
/// remove its own, so each new guest session first clears those of processes no longer running.
enum GuestFolders {
    static let prefix = "setgame-guest-"

    /// A new folder's path for the process `pid`, under `parent`.
    static func path(in parent: String, pid: Int32 = getpid()) -> String {
        join(parent, "\(prefix)\(pid)-\(UInt32.random(in: 0...UInt32.max))")
    }

    /// Removes the guest folders under `parent` whose process is gone; says which it removed.
    @discardableResult
    static func sweep(in parent: String, isRunning: (Int32) -> Bool = GuestFolders.isRunning) -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: parent)) ?? []
        var removed: [String] = []
        for name in names where name.hasPrefix(prefix) {
            guard let pid = name.dropFirst(prefix.count).split(separator: "-").first.flatMap({ Int32($0) }), !isRunning(pid) else { continue }
            if (try? FileManager.default.removeItem(atPath: join(parent, name))) != nil { removed.append(name) }
        }
        return removed
    }

    private static func join(_ parent: String, _ name: String) -> String { parent.hasSuffix("/") ? parent + name : parent + "/" + name }

    /// Whether a process with this pid exists (one of another user's counts: its folder is not ours to judge).
    static func isRunning(_ pid: Int32) -> Bool { kill(pid, 0) == 0 || errno == EPERM }
}
