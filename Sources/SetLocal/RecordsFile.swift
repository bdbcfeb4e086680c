import Foundation
import SetNet
import SetRules

/// Personal records on disk: a few "key value" lines in a private folder, replaced whole (written
/// beside, then renamed), so a crash leaves the old records or the new, never half of either.
package enum RecordsFile {
    private static let keys = ["games", "best-score", "fastest-set-ms", "sets-taken", "set-time-total-ms"]

    /// The records kept at `path`; none yet (or unreadable) reads as a fresh start.
    package static func load(_ path: String) -> PersonalRecords {
        var records = PersonalRecords()
        guard let data = FileManager.default.contents(atPath: path) else { return records }
        for line in String(decoding: data, as: UTF8.self).split(separator: "\n") {
            let parts = line.split(separator: " ")
            guard parts.count == 2, let value = Int(parts[1]) else { continue }
            switch parts[0] {
            case "games": records.games = max(0, value)
            case "best-score": records.bestScore = value
            case "fastest-set-ms": records.fastestSetMs = max(0, value)
            case "sets-taken": records.setsTaken = max(0, value)
            case "set-time-total-ms": records.setTimeTotalMs = max(0, value)
            default: continue
            }
        }
        return records
    }

    /// Replaces the records at `path`; a problem (the folder not private, a full disk) in words.
    @discardableResult
    package static func save(_ records: PersonalRecords, to path: String) -> String? {
        let folder = (path as NSString).deletingLastPathComponent
        try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true,
                                                 attributes: [.posixPermissions: 0o700])
        if let problem = PrivateFolder.problem(folder) { return problem }
        let values = [records.games, records.bestScore, records.fastestSetMs, records.setsTaken, records.setTimeTotalMs]
        let text = zip(keys, values).compactMap { key, value in value.map { "\(key) \($0)\n" } }.joined()
        let temporary = "\(path).\(getpid()).tmp"
        guard FileManager.default.createFile(atPath: temporary, contents: Data(text.utf8), attributes: [.posixPermissions: 0o600]) else {
            return "cannot write \(temporary)"
        }
        guard rename(temporary, path) == 0 else {
            let reason = String(cString: strerror(errno))
            unlink(temporary)
            return "cannot replace \(path): \(reason)"
        }
        return nil
    }
}
