import SetNet

/// Why a server could not start, in words that name the real culprit: the data folder or the
/// network, never one dressed as the other.
package enum ServerStartError: Error, CustomStringConvertible, Sendable {
    /// The `--data` folder cannot be created or written.
    case dataDirectory(path: String, reason: String)
    /// The accounts store cannot be opened, or is refused (`location` is shown without a password).
    case store(location: String, reason: String)
    /// Another server holds the `--data` folder's lock.
    case dataDirectoryInUse(path: String)
    /// The listening socket (or the event loop) could not be set up.
    case network(host: String, port: UInt16, SystemCallError)
    /// The ssh door's Unix socket could not be set up.
    case doorSocket(path: String, SystemCallError)
    /// `--node` without what a node needs, or its name refused in the shared store.
    case cluster(String)
    /// The shared PostgreSQL store cannot be reached now (it is restarting, or not up yet):
    /// worth trying again (`StartPatience`), unlike everything above.
    case storeUnreachable(String)

    package var description: String {
        switch self {
        case .dataDirectory(let path, let reason): "cannot use the data folder \(path): \(reason)"
        case .store(let location, let reason): "cannot open the store \(location): \(reason)"
        case .dataDirectoryInUse(let path):
            "the data folder \(path) is in use by another setgame serve; stop that one first, or give this one another --data"
        case .network(let host, let port, let error): "cannot listen on \(host):\(port): \(error)"
        case .doorSocket(let path, let error): "cannot open the door socket \(path): \(error)"
        case .cluster(let reason): "cannot serve as a node: \(reason)"
        case .storeUnreachable(let reason): "the store cannot be reached now: \(reason)"
        }
    }

    /// Whether starting again a little later may succeed: only a store that cannot be reached.
    package var isWorthRetrying: Bool {
        if case .storeUnreachable = self { true } else { false }
    }

    /// Runs a socket call of the start-up, naming the address if it fails.
    static func network<T>(_ config: ServerConfig, _ body: () throws(SystemCallError) -> T) throws(ServerStartError) -> T {
        do { return try body() } catch { throw .network(host: config.host, port: config.port, error) }
    }
}
