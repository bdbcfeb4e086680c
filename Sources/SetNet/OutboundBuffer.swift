import Glibc

/// Bytes waiting to go out on one socket. Everything queued between two flushes leaves in one
/// `write`, so a burst of events costs one system call per recipient, not one per event.
package struct OutboundBuffer: Sendable {
    private var bytes: [UInt8] = []
    private var sent = 0
    /// Whether `bytes` begins at the start of a line (`compact` may cut inside one).
    private var startsAtLineStart = true

    package init() {}

    /// Bytes still to be written.
    package var count: Int { bytes.count - sent }
    package var isEmpty: Bool { count == 0 }

    package mutating func append(_ chunk: [UInt8]) {
        bytes.append(contentsOf: chunk)
    }

    package mutating func append(_ chunk: ArraySlice<UInt8>) {
        bytes.append(contentsOf: chunk)
    }

    package enum FlushResult: Equatable, Sendable {
        /// Everything was written.
        case drained
        /// The socket is full; wait until it is writable.
        case blocked
        /// The peer is gone or the socket failed.
        case failed(Int32)
    }

    /// Drops every line not yet begun and keeps the rest of the one being written, so a line
    /// appended next (a fatal error for a reader too slow for the rest) arrives whole and soon.
    package mutating func dropUnstartedLines() {
        let atLineStart = sent > 0 ? bytes[sent - 1] == 0x0A : startsAtLineStart
        if atLineStart {
            bytes.removeSubrange(sent...)
        } else if let newline = bytes[sent...].firstIndex(of: 0x0A) {
            bytes.removeSubrange((newline + 1)...)
        }
    }

    /// Writes as much as the socket takes now.
    package mutating func flush(to fd: Int32) -> FlushResult {
        while sent < bytes.count {
            let result = bytes.withUnsafeBytes { raw in
                SystemCall.run { Glibc.write(fd, raw.baseAddress! + sent, raw.count - sent) }
            }
            switch result {
            case .done(let written) where written > 0: sent += written
            case .done: return .failed(EPIPE)
            case .wouldBlock:
                compact()
                return .blocked
            case .failed(let code): return .failed(code)
            }
        }
        bytes.removeAll(keepingCapacity: bytes.capacity <= 64 * 1024)
        sent = 0
        startsAtLineStart = true
        return .drained
    }

    /// Drops what was already written once it is the larger part, keeping appends amortised O(1).
    private mutating func compact() {
        if sent > 4_096 && sent * 2 > bytes.count {
            startsAtLineStart = bytes[sent - 1] == 0x0A
            bytes.removeFirst(sent)
            sent = 0
        }
    }
}
