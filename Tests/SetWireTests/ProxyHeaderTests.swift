import SetWire
import Testing

/// The PROXY v2 parser, byte by byte: headers as haproxy writes them (the spec's layout, built
/// here by hand), in every chunking, truncated, with a wrong signature, LOCAL, IPv4 and IPv6.
struct ProxyHeaderTests {
    /// A version 2 header: `command` (0 LOCAL, 1 PROXY), `family` byte, then `body`.
    static func header(command: UInt8 = 1, family: UInt8, body: [UInt8]) -> [UInt8] {
        ProxyHeader.signature + [0x20 | command, family, UInt8(body.count >> 8), UInt8(body.count & 0xFF)] + body
    }

    /// IPv4 TCP from 203.0.113.7:51000 to 10.0.0.1:7380.
    static let ipv4 = header(family: 0x11, body: [203, 0, 113, 7, 10, 0, 0, 1, 0xC7, 0x38, 0x1C, 0xD4])

    /// IPv6 TCP from 2001:db8::1:443 ... port 8080.
    static let ipv6: [UInt8] = {
        var source = [UInt8](repeating: 0, count: 16)
        (source[0], source[1], source[2], source[3], source[15]) = (0x20, 0x01, 0x0D, 0xB8, 0x01)
        var destination = [UInt8](repeating: 0, count: 16)
        destination[15] = 2
        return header(family: 0x21, body: source + destination + [0x1F, 0x90, 0x1C, 0xD4])
    }()

    @Test func anIPv4HeaderGivesItsSourceAndItsLength() {
        #expect(ProxyHeader.parse(Self.ipv4) == .header(.proxied(address: "203.0.113.7", port: 51_000), length: 28))
    }

    @Test func anIPv6HeaderGivesItsSourceUncompressedSoItsNetworkIsItsFirstThreeGroups() {
        #expect(ProxyHeader.parse(Self.ipv6) == .header(.proxied(address: "2001:db8:0:0:0:0:0:1", port: 8080), length: 52))
    }

    @Test func theClientsOwnBytesAfterTheHeaderAreNotPartOfIt() {
        let line = Array(#"{"type":"hello"}"#.utf8) + [0x0A]
        #expect(ProxyHeader.parse(Self.ipv4 + line) == .header(.proxied(address: "203.0.113.7", port: 51_000), length: 28))
    }

    /// Fed one chunk at a time (1, 2, 7 bytes...), each prefix asks for no more than the header
    /// still lacks, so reading exactly that never takes a byte of the client's.
    @Test func everyChunkingAsksForNoMoreThanTheHeaderLacks() {
        for header in [Self.ipv4, Self.ipv6, Self.header(command: 0, family: 0, body: [])] {
            for chunk in [1, 2, 3, 7, 16, 4096] {
                var received: [UInt8] = []
                var answer = ProxyHeader.parse(received)
                while case .needMore(let more) = answer {
                    #expect(more > 0 && received.count + more <= header.count, "chunk \(chunk) at \(received.count)")
                    received += header[received.count..<min(header.count, received.count + min(chunk, more))]
                    answer = ProxyHeader.parse(received)
                }
                guard case .header(_, let length) = answer else { Issue.record("chunk \(chunk): \(answer)"); continue }
                #expect(length == header.count && received.count == header.count)
            }
        }
    }

    @Test func aTruncatedHeaderNeedsMoreUntilItIsWhole() {
        #expect(ProxyHeader.parse([]) == .needMore(bytes: 16))
        #expect(ProxyHeader.parse(Self.ipv4.prefix(5)) == .needMore(bytes: 11))
        #expect(ProxyHeader.parse(Self.ipv4.prefix(16)) == .needMore(bytes: 12))
        #expect(ProxyHeader.parse(Self.ipv4.prefix(27)) == .needMore(bytes: 1))
    }

    @Test func aWrongSignatureIsRefusedAtItsFirstWrongByte() {
        #expect(ProxyHeader.parse(Array(#"{"type":"hello"}"#.utf8)) == .invalid(.signature))
        #expect(ProxyHeader.parse(Array("PROXY TCP4 1.2.3.4 5.6.7.8 1 2\r\n".utf8)) == .invalid(.signature), "version 1 is not read")
        var wrong = Self.ipv4
        wrong[8] = 0x58
        #expect(ProxyHeader.parse(wrong.prefix(9)) == .invalid(.signature), "known at once, not after 16 bytes")
    }

    @Test func aLocalHeaderIsTheProxysOwnConnection() {
        #expect(ProxyHeader.parse(Self.header(command: 0, family: 0, body: [])) == .header(.local, length: 16))
        // A LOCAL header may carry addresses: they are skipped, not believed.
        #expect(ProxyHeader.parse(Self.header(command: 0, family: 0x11, body: Array(Self.ipv4.suffix(12)))) == .header(.local, length: 28))
    }

    @Test func anUnspecifiedOrUnixFamilyCarriesNoAddress() {
        #expect(ProxyHeader.parse(Self.header(family: 0x00, body: [])) == .header(.unknown, length: 16))
        #expect(ProxyHeader.parse(Self.header(family: 0x31, body: [UInt8](repeating: 0, count: 216))) == .header(.unknown, length: 232))
    }

    @Test func badVersionsCommandsFamiliesAndLengthsAreRefused() {
        var v1 = Self.ipv4
        v1[12] = 0x11
        #expect(ProxyHeader.parse(v1) == .invalid(.version(1)))
        #expect(ProxyHeader.parse(Self.header(command: 2, family: 0x11, body: Array(Self.ipv4.suffix(12)))) == .invalid(.command(2)))
        #expect(ProxyHeader.parse(Self.header(family: 0x41, body: [])) == .invalid(.family(4)))
        #expect(ProxyHeader.parse(Self.header(family: 0x11, body: [1, 2, 3, 4])) == .invalid(.short(family: "IPv4", length: 4)))
        #expect(ProxyHeader.parse(Self.header(family: 0x21, body: [UInt8](repeating: 0, count: 12))) == .invalid(.short(family: "IPv6", length: 12)))
        // A length past the bound is refused from the fixed part alone, before any of it is read.
        let long = ProxyHeader.signature + [0x21, 0x11, 0xFF, 0xFF]
        #expect(ProxyHeader.parse(long) == .invalid(.tooLong(65_535)))
    }
}
