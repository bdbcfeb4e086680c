/// Where a server listens.
public struct ServerAddress: Equatable, Sendable {
    public var host = "127.0.0.1"
    public var port: UInt16 = 7380

    public init(host: String = "127.0.0.1", port: UInt16 = 7380) {
        self.host = host
        self.port = port
    }
}
