import Glibc

/// Writing text lines straight to a file descriptor with write(2): stdio's shared `stdout` and
/// `stderr` are globals Swift 6 cannot prove safe, and a Dispatch queue may print too.
package enum LineOutput {
    /// Writes `lines`, each ending in a newline, all of it even if the descriptor takes it in
    /// parts; through the sockets' one write path, giving up where a socket's flush would.
    package static func write(_ lines: [String], to fd: Int32) {
        guard !lines.isEmpty else { return }
        write(bytes: Array((lines.joined(separator: "\n") + "\n").utf8), to: fd)
    }

    /// Writes all of `bytes` (a terminal frame, say) through the same one write path; a
    /// descriptor someone made non-blocking is waited on, not spun on, until it takes the rest.
    package static func write(bytes: [UInt8], to fd: Int32) {
        var output = OutboundBuffer()
        output.append(bytes)
        while output.flush(to: fd) == .blocked {
            var ready = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
            guard poll(&ready, 1, 1_000) > 0 else { return }
        }
    }
}
