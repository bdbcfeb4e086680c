import SetNet

/// Why a load could not run.
package enum LoadFailure: Error, CustomStringConvertible {
    case socket(SystemCallError)
    /// The server turned a connection away before the load began, for this reason.
    case refused(reason: String, spread: Bool)

    package var description: String {
        switch self {
        case .socket(let error): "\(error)"
        case .refused(let reason, let spread):
            "the server refused a connection before the load began: \(reason)\n"
                + (spread ? "hint: the load came from many loopback addresses; the server's own limits (--max-connections, --max-matches) may be too low for it"
                          : "hint: the load comes from one address and the server limits each address (--connections-per-address, "
                            + "--connect-rate-per-address, --matches-per-address); run the bench on the server's machine against "
                            + "127.0.0.1, where it spreads over loopback addresses, or raise those limits")
        }
    }
}
