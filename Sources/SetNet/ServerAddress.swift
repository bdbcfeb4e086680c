/// Where a server listens.
package struct ServerAddress: Equatable, Sendable {
    package var host = "127.0.0.1"
    package var port: UInt16 = 7380

    package init(host: String = "127.0.0.1", port: UInt16 = 7380) {
        self.host = host
        self.port = port
    }
}
