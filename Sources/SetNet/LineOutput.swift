import Glibc

/// Writing text lines straight to a file descriptor with write(2): stdio's shared `stdout` and
/// `stderr` are globals Swift 6 cannot prove safe, and a Dispatch queue may print too.
public enum LineOutput {
    /// Writes `lines`, each ending in a newline, all of it even if the descriptor takes it in parts.
    public static func write(_ lines: [String], to fd: Int32) {
        guard !lines.isEmpty else { return }
        var text = lines.joined(separator: "\n") + "\n"
        text.withUTF8 { bytes in
            var offset = 0
            while offset < bytes.count {
                let written = Glibc.write(fd, bytes.baseAddress! + offset, bytes.count - offset)
                if written < 0 && errno == EINTR { continue }
                guard written > 0 else { return }
                offset += written
            }
        }
    }
}
