import Glibc

extension LineSocket {
    /// What one read of a preamble gave.
    package enum PreambleRead {
        case bytes([UInt8])
        /// Nothing to read now.
        case nothing
        case endOfStream
        case failed(SystemCallError)
    }

    /// Reads at most `count` bytes as they are, before any line is framed: a preamble whose
    /// length its parser knows (the PROXY v2 header), so no byte of the peer's first line is
    /// taken from the line reader.
    package func readPreamble(upTo count: Int) -> PreambleRead {
        let wanted = max(1, min(count, readBuffer.bytes.count))
        let result = readBuffer.bytes.withUnsafeMutableBytes { buffer in SystemCall.run { Glibc.read(fd, buffer.baseAddress, wanted) } }
        switch result {
        case .done(0): return .endOfStream
        case .done(let read):
            bytesRead += read
            return .bytes(Array(readBuffer.bytes[0..<read]))
        case .wouldBlock: return .nothing
        case .failed(let code): return .failed(SystemCallError("read", code: code))
        }
    }
}
