import Glibc

/// A failed system call (a socket, a file, a pipe), with the call's name and errno's text.
package struct SystemCallError: Error, CustomStringConvertible, Sendable {
    package var call: String
    package var code: Int32
    /// What went wrong when errno does not say it (a failed name lookup has its own codes).
    package var reason: String?

    package init(_ call: String, code: Int32 = errno, reason: String? = nil) {
        self.call = call
        self.code = code
        self.reason = reason
    }

    /// Whether the process (EMFILE) or the system (ENFILE) has no file descriptor left.
    package var isOutOfDescriptors: Bool { code == EMFILE || code == ENFILE }

    /// Whether the call would have had to wait (a lock held by another process, a full socket).
    package var wouldBlock: Bool { code == EWOULDBLOCK || code == EAGAIN }

    package var description: String { "\(call): \(reason ?? String(cString: strerror(code)))" }
}
