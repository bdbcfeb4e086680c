import CLinux
import Glibc

/// A write or append that stopped part way: how many bytes reached the file, and why the rest did not.
package struct AppendFailure: Error, Sendable {
    package var written: Int
    package var error: SystemCallError
}

/// The system calls of the server's files (a match journal, the server's state file, the data
/// folder's lock), beside the sockets' and made the same way (`SystemCall`): whole
/// writes and reads, data syncs, an exclusive lock.
package enum FileCalls {
    /// Writes all of `bytes` at the end of `fd` (opened `O_APPEND`); nil when all are written.
    package static func append(_ bytes: [UInt8], to fd: Int32) -> AppendFailure? {
        bytes.withUnsafeBytes { write($0, to: fd) }
    }

    /// Writes all of `bytes` to `fd`, going on after a short write; nil when all are written.
    package static func write(_ bytes: UnsafeRawBufferPointer, to fd: Int32) -> AppendFailure? {
        var offset = 0
        while offset < bytes.count {
            switch SystemCall.run({ Glibc.write(fd, bytes.baseAddress! + offset, bytes.count - offset) }) {
            case .done(let written) where written > 0: offset += written
            // A file that takes nothing and says nothing (0 written) is as full as one that says ENOSPC.
            case .done: return AppendFailure(written: offset, error: SystemCallError("write", code: ENOSPC))
            case .wouldBlock: return AppendFailure(written: offset, error: SystemCallError("write", code: EAGAIN))
            case .failed(let code): return AppendFailure(written: offset, error: SystemCallError("write", code: code))
            }
        }
        return nil
    }

    /// Fills all of `buffer` from `fd` at `offset` (`pread`: the file position stays), going on
    /// after a short read; false when the file ends first or a read fails.
    package static func read(into buffer: UnsafeMutableRawBufferPointer, from fd: Int32, at offset: off_t) -> Bool {
        var done = 0
        while done < buffer.count {
            guard case .done(let count) = SystemCall.run({ pread(fd, buffer.baseAddress! + done, buffer.count - done, offset + off_t(done)) }),
                  count > 0 else { return false }
            done += count
        }
        return true
    }

    /// Reads what `fd` has next into `buffer`, up to its size: the count (0 at the end of the
    /// file), or the failure.
    package static func readSome(into buffer: UnsafeMutableRawBufferPointer, from fd: Int32) -> Result<Int, SystemCallError> {
        switch SystemCall.run({ Glibc.read(fd, buffer.baseAddress!, buffer.count) }) {
        case .done(let count): .success(count)
        case .wouldBlock: .failure(SystemCallError("read", code: EAGAIN))
        case .failed(let code): .failure(SystemCallError("read", code: code))
        }
    }

    /// Puts what was written to each of `files` on disk: one file by `fdatasync`, several of one
    /// filesystem by one `syncfs` (one commit of the filesystem's journal and one flush for all of
    /// them, where an `fdatasync` each made one each), or each by `fdatasync` where `syncfs`
    /// fails. Says whether every one is on disk as far as the kernel says. A `syncfs` also puts
    /// on disk whatever else of that filesystem was written: more work, on the background queue.
    @discardableResult
    package static func syncTogether(_ files: [Int32]) -> Bool {
        guard files.count > 1 else { return files.map(syncData).allSatisfy { $0 } }
        var synced = true
        for group in byFilesystem(files) {
            if group.count > 1, case .done = SystemCall.run({ Int(setgame_syncfs(group[0])) }) { continue }
            if !group.map(syncData).allSatisfy({ $0 }) { synced = false }
        }
        return synced
    }

    /// `files` grouped by the filesystem each is on (`st_dev`), in the order each first came; a
    /// file `fstat` cannot read is a group of its own.
    package static func byFilesystem(_ files: [Int32]) -> [[Int32]] {
        var groups: [[Int32]] = []
        var groupOf: [UInt: Int] = [:]
        for fd in files {
            var status = stat()
            guard fstat(fd, &status) == 0 else {
                groups.append([fd])
                continue
            }
            if let index = groupOf[UInt(status.st_dev)] {
                groups[index].append(fd)
            } else {
                groupOf[UInt(status.st_dev)] = groups.count
                groups.append([fd])
            }
        }
        return groups
    }

    /// Puts what was written to `fd` on disk (`fdatasync`); says whether it did.
    @discardableResult
    package static func syncData(_ fd: Int32) -> Bool {
        SystemCall.run { Int(fdatasync(fd)) } == .done(0)
    }

    /// Takes `fd`'s exclusive `flock` without waiting; a lock held elsewhere throws an error
    /// whose `wouldBlock` is true.
    package static func lockExclusively(_ fd: Int32, _ what: String) throws(SystemCallError) {
        switch SystemCall.run({ Int(flock(fd, LOCK_EX | LOCK_NB)) }) {
        case .done: return
        case .wouldBlock: throw SystemCallError(what, code: EWOULDBLOCK)
        case .failed(let code): throw SystemCallError(what, code: code)
        }
    }
}
