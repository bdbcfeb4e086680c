import SetNet
import SetRules
import SetWire

// The server's requests and rooms speak to connections through these, in the words they always
// used; the connections part (`ConnectionTable`) does the queueing, writing and closing.
extension Server {
    func send(_ message: ServerMessage, to connection: Connection) { connections.send(message, to: connection) }

    func deliver(_ deliveries: [Delivery], except excluded: ConnectionID? = nil) { connections.deliver(deliveries, except: excluded) }

    func enqueue(_ bytes: [UInt8], to connection: Connection) { connections.enqueue(bytes, to: connection) }

    /// Sends a coded error; a fatal one closes the connection once it is written.
    func fail(_ connection: Connection, _ error: WireError, id: JSONValue? = nil) { connections.fail(connection, error, id: id) }

    func markClosed(_ connection: Connection, _ reason: String) { connections.markClosed(connection, reason) }

    /// Logs `message` unless the same condition was logged less than a second ago.
    func logQuietly(_ condition: String, _ message: String) { quietLog.quietly(condition, message) }
}

extension Server {
    /// A new spectator's feed starts now: what happened before is in its snapshot.
    func watchFromNow(_ connection: Connection, _ room: MatchRoom) { connections.watchFromNow(connection, room) }
}
