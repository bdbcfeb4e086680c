import Glibc

/// A failed system call, with the call's name and errno's text.
public struct SocketError: Error, CustomStringConvertible, Sendable {
    public var call: String
    public var code: Int32
    /// What went wrong when errno does not say it (a failed name lookup has its own codes).
    public var reason: String?

    public init(_ call: String, code: Int32 = errno, reason: String? = nil) {
        self.call = call
        self.code = code
        self.reason = reason
    }

    /// Whether the process (EMFILE) or the system (ENFILE) has no file descriptor left.
    public var isOutOfDescriptors: Bool { code == EMFILE || code == ENFILE }

    /// Whether the call would have had to wait (a lock held by another process, a full socket).
    public var wouldBlock: Bool { code == EWOULDBLOCK || code == EAGAIN }

    public var description: String { "\(call): \(reason ?? String(cString: strerror(code)))" }
}
