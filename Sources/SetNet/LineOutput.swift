/// Writing text lines straight to a file descriptor with write(2): stdio's shared `stdout` and
/// `stderr` are globals Swift 6 cannot prove safe, and a Dispatch queue may print too.
public enum LineOutput {
    /// Writes `lines`, each ending in a newline, all of it even if the descriptor takes it in
    /// parts; through the sockets' one write path, giving up where a socket's flush would.
    public static func write(_ lines: [String], to fd: Int32) {
        guard !lines.isEmpty else { return }
        var output = OutboundBuffer()
        output.append(Array((lines.joined(separator: "\n") + "\n").utf8))
        _ = output.flush(to: fd)
    }
}
