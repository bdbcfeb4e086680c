/// The PROXY protocol's version 2 header (haproxy's `send-proxy-v2`): what a proxy in front of
/// the server says of the client it passes through, before any byte of the client's. A pure
/// parser over the bytes received so far; the server reads it only from proxies its operator
/// names (`serve --proxy-from`), and never reads past it.
package enum ProxyHeader: Equatable, Sendable {
    /// The proxy speaks for itself (a health check): the connection's own address counts.
    case local
    /// The proxy passes a client through: its source address (text) and port.
    case proxied(address: String, port: UInt16)
    /// The proxy passes a connection whose address it does not say (family UNSPEC or a Unix
    /// socket): the connection's own address counts, as for `local`.
    case unknown

    /// `\r\n\r\n\0\r\nQUIT\n`: the twelve bytes every version 2 header begins with.
    package static let signature: [UInt8] = [0x0D, 0x0A, 0x0D, 0x0A, 0x00, 0x0D, 0x0A, 0x51, 0x55, 0x49, 0x54, 0x0A]
    /// Whether a line (its newline gone) is one a PROXY header makes when read as lines by a
    /// server not told to expect it: version 2's `\0` line (its first two lines are blank), or
    /// version 1's text header. No client line is either: JSON cannot start with a NUL or "PROXY ".
    package static func isSplitHeaderLine(_ line: some Collection<UInt8>) -> Bool {
        line.elementsEqual([0x00]) || line.starts(with: Array("PROXY ".utf8))
    }

    /// The fixed part: signature, version and command, family and transport, length.
    package static let fixedLength = 16
    /// The most the address part (with any TLVs) may hold here: a Unix pair is 216 bytes, and
    /// haproxy's TLVs a few dozen more; a longer one is refused, not read.
    package static let maxAddressLength = 1_024

    /// What the bytes received so far make.
    package enum Parse: Equatable, Sendable {
        /// A complete header of `length` bytes (the client's own bytes start after it).
        case header(ProxyHeader, length: Int)
        /// Not complete yet: at least `bytes` more are needed, and no more than that may be read
        /// before parsing again (so no byte of the client's is taken).
        case needMore(bytes: Int)
        /// Not a valid version 2 header: the connection is refused.
        case invalid(ProxyHeaderError)
    }

    /// Parses the start of a connection's bytes (everything received so far, in order).
    package static func parse(_ bytes: some Collection<UInt8>) -> Parse {
        let prefix = Array(bytes.prefix(fixedLength))
        for (index, byte) in prefix.enumerated() where index < signature.count && byte != signature[index] {
            return .invalid(.signature)
        }
        guard prefix.count == fixedLength else { return .needMore(bytes: fixedLength - prefix.count) }
        guard prefix[12] >> 4 == 0x2 else { return .invalid(.version(prefix[12] >> 4)) }
        let length = Int(prefix[14]) << 8 | Int(prefix[15])
        guard length <= maxAddressLength else { return .invalid(.tooLong(length)) }
        let total = fixedLength + length
        guard bytes.count >= total else { return .needMore(bytes: total - bytes.count) }
        let body = Array(bytes.dropFirst(fixedLength).prefix(length))
        switch prefix[12] & 0x0F {
        case 0x0: return .header(.local, length: total)
        case 0x1: break
        case let command: return .invalid(.command(command))
        }
        switch prefix[13] >> 4 {
        case 0x1:
            guard body.count >= 12 else { return .invalid(.short(family: "IPv4", length: length)) }
            let address = body[0..<4].map(String.init).joined(separator: ".")
            return .header(.proxied(address: address, port: UInt16(body[8]) << 8 | UInt16(body[9])), length: total)
        case 0x2:
            guard body.count >= 36 else { return .invalid(.short(family: "IPv6", length: length)) }
            let groups = stride(from: 0, to: 16, by: 2).map { String(UInt16(body[$0]) << 8 | UInt16(body[$0 + 1]), radix: 16) }
            return .header(.proxied(address: groups.joined(separator: ":"), port: UInt16(body[32]) << 8 | UInt16(body[33])), length: total)
        case 0x0, 0x3: return .header(.unknown, length: total)
        case let family: return .invalid(.family(family))
        }
    }
}

/// Why a proxy's first bytes are no PROXY v2 header.
package enum ProxyHeaderError: Error, Equatable, Sendable {
    /// The first bytes are not the signature (a client, or a proxy sending nothing or v1).
    case signature
    case version(UInt8)
    case command(UInt8)
    case family(UInt8)
    /// The address part is shorter than its family needs.
    case short(family: String, length: Int)
    /// The address part is longer than `ProxyHeader.maxAddressLength`.
    case tooLong(Int)

    /// In a sentence, for the log.
    package var reason: String {
        switch self {
        case .signature: "its first bytes are not the PROXY v2 signature"
        case .version(let version): "PROXY version \(version), not 2"
        case .command(let command): "unknown PROXY command \(command)"
        case .family(let family): "unknown address family \(family)"
        case .short(let family, let length): "\(length) bytes are too few for an \(family) address"
        case .tooLong(let length): "an address part of \(length) bytes is longer than \(ProxyHeader.maxAddressLength)"
        }
    }
}
