import Glibc
import SetNet
@testable import SetServer
import SetTestSupport
import SetWire
import Testing

/// The PROXY protocol v2 over real sockets (`serve --proxy-from`, issue 42 item 14): a named
/// proxy's clients count by the address its header carries, a named proxy without a header is
/// refused, and nobody else's header is believed.
@Suite(.serialized) struct ProxyProtocolTests {
    /// The header haproxy's `send-proxy-v2` writes for a TCP client at `source` (IPv4).
    static func header(from source: [UInt8]) -> [UInt8] {
        ProxyHeader.signature + [0x21, 0x11, 0, 12] + source + [127, 0, 0, 1, 0xC3, 0x50, 0x1C, 0xD4]
    }

    /// A server that reads headers from `proxies`, and lets one address hold one connection.
    static func server(proxies: Set<String>) throws -> TestServer {
        try TestServer { config in
            config.perAddress.proxies = proxies
            config.perAddress.connections = 1
        }
    }

    /// A connection that sends `preamble` first, then its welcome read.
    static func client(_ server: TestServer, preamble: [UInt8]) throws -> TestClient {
        let client = try TestClient(port: server.port)
        client.sendRaw(preamble)
        return client
    }

    /// Whether the server answers `client` with a pong: it was admitted.
    static func answers(_ client: TestClient) throws -> Bool {
        client.send(.ping(time: 7))
        return try client.waitFor("a pong or an error") { message -> Bool? in
            switch message {
            case .pong: true
            case .error: false
            default: nil
            }
        }
    }

    /// The lines `client` got before the server closed it (an end of stream, or a reset: bytes
    /// the server never read are thrown away by the close); nil when it stayed open.
    static func linesUntilClosed(_ client: TestClient) -> [String]? {
        var lines: [String] = []
        while true {
            switch client.socket.read() {
            case .nothing: return nil
            case .endOfStream: return lines
            case .failed(let error): return error.code == ECONNRESET ? lines : nil
            case .lines(let read): for case .complete(let bytes) in read { lines.append(String(decoding: bytes, as: UTF8.self)) }
            }
        }
    }

    @Test func aNamedProxysClientsCountByTheAddressItsHeaderCarries() throws {
        let server = try Self.server(proxies: ["127.0.0.1"])
        defer { server.stop() }
        // Two clients through one proxy address, from two addresses: each holds its own one.
        let first = try Self.client(server, preamble: Self.header(from: [10, 0, 0, 1]))
        let second = try Self.client(server, preamble: Self.header(from: [10, 0, 0, 2]))
        #expect(try Self.answers(first) && Self.answers(second))
        // A second connection from 10.0.0.1 is over that address's share, whoever carried it.
        let again = try Self.client(server, preamble: Self.header(from: [10, 0, 0, 1]))
        #expect(try again.awaitError(.addressLimit).fatal)
        withExtendedLifetime((first, second)) {}
    }

    @Test func aHeaderSentByteByByteWithTheFirstLineBehindItIsReadWhole() throws {
        let server = try Self.server(proxies: ["127.0.0.1"])
        defer { server.stop() }
        let client = try TestClient(port: server.port)
        // The client's first line follows the header in the same write: none of it is lost.
        let bytes = Self.header(from: [192, 0, 2, 9]) + ClientMessageEncoder.line(ClientRequest(id: nil, .ping(time: 3)))
        for byte in bytes.prefix(27) { client.sendRaw([byte]) }
        client.sendRaw(Array(bytes.dropFirst(27)))
        #expect(try client.waitFor("the pong to the line behind the header") { message -> Bool? in
            if case .pong = message { return true }
            if case .error = message { return false }
            return nil
        })
        // A LOCAL header (haproxy's health check) counts under the proxy's own address.
        let check = try Self.client(server, preamble: ProxyHeader.signature + [0x20, 0x00, 0, 0])
        #expect(try Self.answers(check))
        let another = try Self.client(server, preamble: ProxyHeader.signature + [0x20, 0x00, 0, 0])
        #expect(try another.awaitError(.addressLimit).fatal, "the proxy's own address holds its one connection")
        withExtendedLifetime(check) {}
    }

    @Test func aNamedProxyThatSendsNoValidHeaderIsRefused() throws {
        let server = try Self.server(proxies: ["127.0.0.1"])
        defer { server.stop() }
        for preamble in [Array("{\"type\":\"ping\",\"time\":1}\n".utf8), Array("PROXY TCP4 10.0.0.1 127.0.0.1 5 6\r\n".utf8),
                         ProxyHeader.signature + [0x21, 0x11, 0, 4, 1, 2, 3, 4]] {
            let client = try Self.client(server, preamble: preamble)
            let lines = try #require(Self.linesUntilClosed(client), "closed, not left open")
            #expect(lines.isEmpty, "no welcome to a connection that said nothing of its client: \(lines)")
        }
        #expect(server.logLines.all.contains { $0.contains("refused a connection from proxy 127.0.0.1") })
    }

    @Test func aNamedProxySilentForFiveSecondsIsRefused() throws {
        let server = try Self.server(proxies: ["127.0.0.1"])
        defer { server.stop() }
        let client = try Self.client(server, preamble: Array(ProxyHeader.signature.prefix(5)))
        // The server may not have accepted it yet when the clock first moves: move it until it closes.
        var closed = false
        for _ in 0..<100 where !closed {
            server.advance(by: Admission.proxyHeaderTimeoutMs + 1)
            var entry = pollfd(fd: client.fd, events: Int16(POLLIN), revents: 0)
            closed = poll(&entry, 1, 100) > 0
        }
        let lines = try #require(Self.linesUntilClosed(client))
        #expect(closed && lines.isEmpty)
    }

    @Test func nobodyElsesHeaderIsBelieved() throws {
        let server = try Self.server(proxies: ["127.0.0.2"])
        defer { server.stop() }
        // From 127.0.0.1, which is no named proxy: a header is no reason to count it elsewhere.
        let first = try Self.client(server, preamble: [])
        #expect(try Self.answers(first))
        let second = try Self.client(server, preamble: Self.header(from: [10, 0, 0, 9]))
        #expect(try second.awaitError(.addressLimit).fatal, "still 127.0.0.1's second connection")
        withExtendedLifetime(first) {}
    }
}
