import Foundation

/// Seat tokens kept between runs, one per command (server, mode and match), so running the same
/// `setgame join` again after a drop resumes the seat. A small tab-separated file, rewritten whole.
public struct SeatTokenStore: Sendable {
    public let path: String

    public init(directory: String) {
        path = directory + "/seats"
    }

    /// The token kept under `key`.
    public func token(for key: String) -> String? {
        entries()[key]
    }

    /// Keeps `token` under `key`, or forgets the key when nil. Failures are ignored: without a
    /// token a rerun simply takes a new seat.
    public func set(_ token: String?, for key: String) {
        var all = entries()
        all[key] = token
        let text = all.sorted { $0.key < $1.key }.map { "\($0.key)\t\($0.value)\n" }.joined()
        let directory = (path as NSString).deletingLastPathComponent
        try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true,
                                                 attributes: [.posixPermissions: 0o700])
        // Tokens let anyone take the seat: readable by the owner only.
        _ = FileManager.default.createFile(atPath: path, contents: Data(text.utf8), attributes: [.posixPermissions: 0o600])
    }

    func entries() -> [String: String] {
        guard let data = FileManager.default.contents(atPath: path), let text = String(data: data, encoding: .utf8) else { return [:] }
        var result: [String: String] = [:]
        for line in text.split(separator: "\n") {
            let parts = line.split(separator: "\t", maxSplits: 1)
            if parts.count == 2 { result[String(parts[0])] = String(parts[1]) }
        }
        return result
    }
}
