import Glibc

/// The checks a folder passes before setgame keeps private state in it (match journals, the
/// server's clock lease): another user who owns it, or may write in it, could read the seat
/// tokens, plant a journal, or leave a link that makes the server overwrite a file of ours.
package enum PrivateFolder {
    /// Why `path` is not a folder only this user can change, or nil if it is. A link to the
    /// folder is followed only when root or this user made it (systemd's `StateDirectory` is one).
    package static func problem(_ path: String) -> String? {
        let me = geteuid()
        var link = stat()
        guard lstat(path, &link) == 0 else { return "cannot look at \(path): \(String(cString: strerror(errno)))" }
        if link.st_mode & S_IFMT == S_IFLNK && link.st_uid != me && link.st_uid != 0 {
            return "\(path) is a link made by another user (uid \(link.st_uid))"
        }
        var info = stat()
        guard stat(path, &info) == 0 else { return "cannot look at \(path): \(String(cString: strerror(errno)))" }
        guard info.st_mode & S_IFMT == S_IFDIR else { return "\(path) is not a folder" }
        guard info.st_uid == me else { return "\(path) belongs to another user (uid \(info.st_uid)), not to this one (uid \(me))" }
        guard info.st_mode & 0o022 == 0 else {
            return "\(path) can be written by other users (mode \(octal(info.st_mode & 0o7777))); make it yours alone: chmod go-w \(path)"
        }
        return nil
    }

    /// Why the folder that holds `path` would let another user swap `path` for a folder of
    /// theirs, or nil: it must be this user's or root's, and a folder anyone may write in must be
    /// sticky (as /tmp is), so only an entry's owner can rename it.
    package static func holderProblem(_ path: String) -> String? {
        let holder = parent(of: path)
        var info = stat()
        guard stat(holder, &info) == 0 else { return "cannot look at \(holder): \(String(cString: strerror(errno)))" }
        let me = geteuid()
        guard info.st_uid == me || info.st_uid == 0 else {
            return "\(holder), which holds \(path), belongs to another user (uid \(info.st_uid))"
        }
        guard info.st_mode & 0o002 == 0 || info.st_mode & S_ISVTX != 0 else {
            return "\(holder), which holds \(path), can be written by anyone and is not sticky (mode \(octal(info.st_mode & 0o7777)))"
        }
        return nil
    }

    private static func parent(of path: String) -> String {
        let trimmed = path.count > 1 && path.hasSuffix("/") ? String(path.dropLast()) : path
        guard let slash = trimmed.lastIndex(of: "/") else { return "." }
        return slash == trimmed.startIndex ? "/" : String(trimmed[..<slash])
    }

    private static func octal(_ mode: mode_t) -> String { "0" + String(mode, radix: 8) }
}
