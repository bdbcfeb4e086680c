import SetRules
import SetWire

// Arenas (Protocol.md, "Arenas", issue 44). The pure arena (SetArena) and the wire are in place;
// the room that holds an arena on its node is not yet, so every arena request is refused as a
// type this server does not serve, and nothing is written.
extension Server {
    func answerArena(_ request: ArenaRequest, id: JSONValue?, from connection: Connection, at now: Instant) {
        fail(connection, WireError(.unknownType, "This server holds no arenas yet (\"\(request.type.rawValue)\")."), id: id)
    }
}
