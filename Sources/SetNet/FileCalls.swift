import Glibc

/// An append that stopped part way: how many bytes reached the file, and why the rest did not.
package struct AppendFailure: Error, Sendable {
    package var written: Int
    package var error: SocketError
}

/// The system calls of an append-only file (a match journal, the data folder's lock), beside the
/// sockets' and made the same way (`SystemCall`): whole appends, data syncs, an exclusive lock.
package enum FileCalls {
    /// Writes all of `bytes` at the end of `fd` (opened `O_APPEND`); nil when all are written.
    package static func append(_ bytes: [UInt8], to fd: Int32) -> AppendFailure? {
        var offset = 0
        while offset < bytes.count {
            let result = bytes.withUnsafeBytes { raw in
                SystemCall.run { Glibc.write(fd, raw.baseAddress! + offset, raw.count - offset) }
            }
            switch result {
            case .done(let written) where written > 0: offset += written
            // A file that takes nothing and says nothing (0 written) is as full as one that says ENOSPC.
            case .done: return AppendFailure(written: offset, error: SocketError("write", code: ENOSPC))
            case .wouldBlock: return AppendFailure(written: offset, error: SocketError("write", code: EAGAIN))
            case .failed(let code): return AppendFailure(written: offset, error: SocketError("write", code: code))
            }
        }
        return nil
    }

    /// Puts what was written to `fd` on disk (`fdatasync`); says whether it did.
    @discardableResult
    package static func syncData(_ fd: Int32) -> Bool {
        SystemCall.run { Int(fdatasync(fd)) } == .done(0)
    }

    /// Takes `fd`'s exclusive `flock` without waiting; a lock held elsewhere throws an error
    /// whose `wouldBlock` is true.
    package static func lockExclusively(_ fd: Int32, _ what: String) throws(SocketError) {
        switch SystemCall.run({ Int(flock(fd, LOCK_EX | LOCK_NB)) }) {
        case .done: return
        case .wouldBlock: throw SocketError(what, code: EWOULDBLOCK)
        case .failed(let code): throw SocketError(what, code: code)
        }
    }
}
