import SetRules
import SetWire

// What the server suites about joining and accounts each wrote again: a client greeted, a client
// joined with an account key, and the answers they ask for, one copy here.
extension TestClient {
    /// Connects to the server on `port` and reads its welcome.
    package static func greeted(port: UInt16) throws -> TestClient {
        let client = try TestClient(port: port)
        _ = try client.waitFor("welcome") { if case .welcome = $0 { true } else { nil } }
        return client
    }

    /// Connects and joins `match` with an account key (nil: a guest); returns the client once its
    /// snapshot came.
    package static func joined(port: UInt16, name: String, key: String?, match: String = "m", role: Role = .player,
                               casual: Bool = false) throws -> TestClient {
        let client = try greeted(port: port)
        var request = JoinRequest(role: role, name: name, match: match)
        request.account = key
        request.casual = casual
        client.send(.join(request))
        _ = try client.waitFor("snapshot") { if case .snapshot = $0 { true } else { nil } }
        return client
    }

    /// Whether the very next thing a ping brings is its pong: nothing else was sent meanwhile.
    package func onlyPong() throws -> Bool {
        send(.ping(time: 7))
        while true {
            switch try next("pong") {
            case .pong: return true
            case .ping: continue
            default: return false
            }
        }
    }

    /// The answer to a `snapshot` request: the phase and how many rating changes it shows, or an
    /// error code.
    package func snapshotAnswer() throws -> String {
        send(.snapshot, id: "s")
        return try waitFor("snapshot or error") { message -> String? in
            switch message {
            case .snapshot(let view): "snapshot \(view.phase) ratings \(view.lastRatings.count)"
            case .error(let error, _): error.code.rawValue
            default: nil
            }
        }
    }
}
