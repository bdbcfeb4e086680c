import Foundation
import Glibc
import SetNet

/// Seat tokens kept between runs, one per command (server, mode and match), so running the same
/// `setgame join` again after a drop resumes the seat. A small tab-separated file, rewritten whole.
///
/// Several processes share it (four `join`s on one account, a `play` beside them): a change is a
/// read, an edit and a rewrite under an exclusive `flock` on a lock file beside it, and the rewrite
/// goes to a temporary file renamed over the old one, so a reader sees the old file or the new one,
/// never half of one, and no writer's token is lost to another's rewrite.
///
/// A token lets anyone take the seat: in a folder another user owns or may write in (a shared
/// `/tmp` fallback someone made first), none is read or kept, and no link in it is followed.
package struct SeatTokenStore: Sendable {
    package let path: String

    package init(directory: String) {
        path = directory + "/seats"
    }

    /// The account keys a client keeps, one per server address, beside the seat tokens and
    /// under the same rules (owner-only folder and files, locked rewrites).
    package init(accountsIn directory: String) {
        path = directory + "/accounts"
    }

    /// The account key kept for `server` ("host:port"), made on first use: 32 random bytes from
    /// /dev/urandom, as hex. Nil when keys cannot be kept here (then the client plays as a guest,
    /// since a key that is not kept would make a new account on every run).
    package func accountKey(for server: String) -> String? {
        if let key = token(for: server) { return key }
        guard let key = Self.randomKey() else { return nil }
        // Another process may make one at the same moment (doors starting their house bot at
        // once): the first one kept is the one, for both.
        return keep(key, for: server, unlessKept: true)
    }

    private static func randomKey() -> String? {
        let fd = open("/dev/urandom", O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { Glibc.close(fd) }
        var bytes = [UInt8](repeating: 0, count: 32)
        let count = bytes.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, 32) }
        guard count == 32 else { return nil }
        return bytes.map { String(format: "%02x", $0) }.joined()
    }

    /// The token kept under `key`.
    package func token(for key: String) -> String? {
        entries()[key]
    }

    /// Why tokens are not kept here, or nil when they are: the folder is not this user's alone.
    package var problem: String? {
        PrivateFolder.problem((path as NSString).deletingLastPathComponent)
    }

    /// Keeps `token` under `key`, or forgets the key when nil. Failures are ignored: without a
    /// token a rerun simply takes a new seat.
    package func set(_ token: String?, for key: String) {
        keep(token, for: key, unlessKept: false)
    }

    /// `set`, or with `unlessKept` only when nothing is kept under `key` yet; returns what is kept
    /// under `key` after, read under the lock (nil when nothing could be kept).
    @discardableResult
    private func keep(_ token: String?, for key: String, unlessKept: Bool) -> String? {
        let directory = (path as NSString).deletingLastPathComponent
        try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true,
                                                 attributes: [.posixPermissions: 0o700])
        guard problem == nil else { return nil }
        // The lock is a file of its own: the seats file is replaced by rename, and a lock on it
        // would stay with the old file.
        let lock = open(path + ".lock", O_CREAT | O_RDWR | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard lock >= 0 else { return nil }
        defer { Glibc.close(lock) }
        guard case .done = SystemCall.run({ Int(flock(lock, LOCK_EX)) }) else { return nil }
        var all = entries()
        if unlessKept, let kept = all[key] { return kept }
        guard all[key] != token else { return token }
        all[key] = token
        let text = all.sorted { $0.key < $1.key }.map { "\($0.key)\t\($0.value)\n" }.joined()
        writeAtomically(Array(text.utf8))
        return entries()[key]
    }

    /// Writes a temporary file (readable by the owner only: tokens let anyone take the seat),
    /// syncs it and renames it over the file.
    private func writeAtomically(_ bytes: [UInt8]) {
        let temporary = "\(path).\(getpid()).\(UInt32.random(in: 0...UInt32.max)).tmp"
        let fd = open(temporary, O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, 0o600)
        guard fd >= 0 else { return }
        let complete = FileCalls.append(bytes, to: fd) == nil && SystemCall.run({ Int(fsync(fd)) }) == .done(0)
        Glibc.close(fd)
        guard complete, rename(temporary, path) == 0 else {
            unlink(temporary)
            return
        }
    }

    func entries() -> [String: String] {
        guard problem == nil, let text = Self.read(path) else { return [:] }
        var result: [String: String] = [:]
        for line in text.split(separator: "\n") {
            let parts = line.split(separator: "\t", maxSplits: 1)
            if parts.count == 2 { result[String(parts[0])] = String(parts[1]) }
        }
        return result
    }

    /// The file's text, read without following a link; nil when it is not there or not text.
    private static func read(_ path: String) -> String? {
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
        guard fd >= 0 else { return nil }
        defer { Glibc.close(fd) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4_096)
        while case .success(let count) = chunk.withUnsafeMutableBytes({ FileCalls.readSome(into: $0, from: fd) }), count > 0 {
            bytes += chunk[0..<count]
        }
        return String(validating: bytes, as: UTF8.self)
    }
}
