import Foundation
import Glibc
import SetBot
import SetRules
import SetWire

/// Where `setgame play` keeps a game between runs: a journal folder per mode, variant and player
/// name under the state folder, and beside it the bot's level and seat token. The classic game
/// keeps the folder and key it had before variants; a daily deal has a folder per date, so the
/// ordinary game and the day's never resume each other.
package struct KeptGame: Sendable {
    package let dataDirectory: String
    package let match: String
    /// The player's seat token's key in the `SeatTokenStore`.
    package let tokenKey: String
    package let mode: Mode
    package let variant: Variant
    /// The player's solo records for this variant, in the ordinary game's folder; the daily
    /// deals keep records of their own there (everyone plays the same deal: a best daily score
    /// compares with a friend's, an ordinary one does not).
    package let recordsFile: String

    package init(stateDirectory: String, mode: Mode, variant: Variant = .classic, daily: DailyDeal? = nil, player: String) {
        // Names may hold any printable character; the folder name keeps only safe bytes.
        let safe = player.utf8.map { byte -> String in
            let c = Character(Unicode.Scalar(byte))
            return byte < 0x80 && (c.isLetter || c.isNumber || c == "-" || c == "_") ? String(c) : String(format: "%%%02X", byte)
        }.joined()
        let kind = (variant == .classic ? mode.rawValue : "\(mode.rawValue)-\(variant.rawValue)")
            + (daily.map { "-daily-\($0.date)" } ?? "")
        dataDirectory = "\(stateDirectory)/play/\(kind)-\(safe)"
        recordsFile = "\(stateDirectory)/play/\(variant == .classic ? mode.rawValue : "\(mode.rawValue)-\(variant.rawValue)")-\(safe)/"
            + (daily == nil ? "records" : "records-daily")
        match = mode.rawValue
        self.mode = mode
        self.variant = variant
        tokenKey = "play \(kind) \(player)"
    }

    private var botFile: String { dataDirectory + "/bot" }
    private var portFile: String { dataDirectory + "/port" }

    /// The port the last run listened on, if it is known.
    package var lastPort: UInt16? {
        guard let data = FileManager.default.contents(atPath: portFile), let text = String(data: data, encoding: .utf8) else { return nil }
        return UInt16(text.trimmingCharacters(in: .whitespacesAndNewlines)).flatMap { $0 == 0 ? nil : $0 }
    }

    /// Notes the port this run listens on, for the next run.
    package func keep(port: UInt16) {
        _ = FileManager.default.createFile(atPath: portFile, contents: Data("\(port)\n".utf8), attributes: [.posixPermissions: 0o600])
    }

    /// An exclusive lock on the kept game, held until the descriptor closes (or the process ends);
    /// nil when another process holds it.
    package func lock() -> Int32? {
        try? FileManager.default.createDirectory(atPath: dataDirectory, withIntermediateDirectories: true,
                                                 attributes: [.posixPermissions: 0o700])
        // Not the server's own "lock": it takes that one itself, once this process owns the game.
        let fd = open(dataDirectory + "/play.lock", O_CREAT | O_RDWR | O_CLOEXEC, 0o600)
        guard fd >= 0 else { return nil }
        guard flock(fd, LOCK_EX | LOCK_NB) == 0 else {
            close(fd)
            return nil
        }
        return fd
    }
    private var journal: String { "\(dataDirectory)/\(match).jsonl" }

    /// Whether a journal of an unfinished match is kept (the server moves finished ones aside).
    package var isUnfinished: Bool { FileManager.default.fileExists(atPath: journal) }

    /// The kept bot's level and seat token.
    package func bot() -> (level: BotLevel, token: String)? {
        guard let data = FileManager.default.contents(atPath: botFile), let text = String(data: data, encoding: .utf8) else { return nil }
        let parts = text.split(separator: "\t").map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
        guard parts.count == 2, let level = BotLevel(rawValue: parts[0]) else { return nil }
        return (level, parts[1])
    }

    /// Keeps the bot's level and seat token, for the next run.
    package func saveBot(level: BotLevel, token: String) {
        try? FileManager.default.createDirectory(atPath: dataDirectory, withIntermediateDirectories: true,
                                                 attributes: [.posixPermissions: 0o700])
        _ = FileManager.default.createFile(atPath: botFile, contents: Data("\(level.rawValue)\t\(token)\n".utf8),
                                           attributes: [.posixPermissions: 0o600])
    }

    /// The newest journal the server set aside under `finished/` (the last game that ended, not one
    /// thrown away by `--new`), if any.
    package func newestFinished() -> String? {
        let finished = dataDirectory + "/finished"
        let names = (try? FileManager.default.contentsOfDirectory(atPath: finished)) ?? []
        let dated = names.filter { $0.hasSuffix(".jsonl") && !$0.contains("-abandoned-") }.compactMap { name -> (Date, String)? in
            let path = "\(finished)/\(name)"
            let date = (try? FileManager.default.attributesOfItem(atPath: path))?[.modificationDate] as? Date
            return date.map { ($0, path) }
        }
        return dated.max { $0.0 < $1.0 }?.1
    }

    /// Sets the kept game aside under `finished/` (where `setgame replay` reads it) and forgets the bot.
    package func discard() {
        try? FileManager.default.removeItem(atPath: botFile)
        guard isUnfinished else { return }
        let finished = dataDirectory + "/finished"
        try? FileManager.default.createDirectory(atPath: finished, withIntermediateDirectories: true)
        try? FileManager.default.moveItem(atPath: journal, toPath: "\(finished)/\(match)-abandoned-\(Int(Date().timeIntervalSince1970)).jsonl")
    }
}
