import SetClient
import SetWire

/// A client a socket driver runs (`ClientDriver`): the game's `ClientApp` and the lobby's
/// `LobbyApp`, both on one `ClientSession`. What happens goes in with the local time; the
/// driver performs the `ClientEffect`s that come out.
package protocol DrivenClient: Sendable {
    /// The node a redirect named, where the driver connects from then on; nil: its own server.
    var redirectedPlace: ServerPlace? { get }
    /// The first effects: connect.
    mutating func start(at now: Int64) -> [ClientEffect]
    mutating func connected(at now: Int64) -> [ClientEffect]
    mutating func receive(_ message: ServerMessage, at now: Int64) -> [ClientEffect]
    /// The connection failed or was lost.
    mutating func connectionLost(_ reason: String, at now: Int64) -> [ClientEffect]
    mutating func input(_ event: InputEvent, at now: Int64) -> [ClientEffect]
    mutating func tick(at now: Int64) -> [ClientEffect]
    /// The next local time at which `tick` has something to do; nil: only an input or a message.
    func nextWake(at now: Int64) -> Int64?
}

extension ClientApp: DrivenClient {}
