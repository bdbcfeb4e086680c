import Foundation
import Glibc

/// Keeps `finished/` bounded: the newest `keep` journals at most, none older than `maxAgeDays`.
/// Journals are plain files; an operator who wants them all copies them away (see the README).
struct FinishedJournals {
    let path: String
    let keep: Int
    let maxAgeDays: Int

    /// Deletes what is over the bounds; returns how many files went. `now` is wall-clock seconds.
    @discardableResult
    func prune(now: Double = Date().timeIntervalSince1970) -> Int {
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).filter { $0.hasSuffix(".jsonl") }
        var files: [(path: String, modified: Double)] = []
        files.reserveCapacity(names.count)
        for name in names {
            let file = "\(path)/\(name)"
            var info = stat()
            guard stat(file, &info) == 0 else { continue }
            files.append((file, Double(info.st_mtim.tv_sec)))
        }
        files.sort { $0.modified > $1.modified }
        let oldest = now - Double(maxAgeDays) * 86_400
        var removed = 0
        for (index, file) in files.enumerated() where index >= keep || file.modified < oldest {
            if unlink(file.path) == 0 { removed += 1 }
        }
        return removed
    }

    private static let queue = DispatchQueue(label: "setgame.prune-finished")

    /// Prunes on a background queue, so a large folder never holds up the event loop.
    func pruneInBackground(log: ServerLog) {
        let pruner = self
        Self.queue.async {
            let removed = pruner.prune()
            if removed > 0 { log("removed \(removed) finished journals over the bounds (\(pruner.keep) files, \(pruner.maxAgeDays) days)") }
        }
    }

    /// Waits for a background prune; for tests and shutdown.
    static func drain() { queue.sync {} }
}
