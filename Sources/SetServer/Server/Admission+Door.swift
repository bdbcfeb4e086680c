import SetNet
import SetRules
import SetWire

// The ssh door's entrance: `setgame door` connects over a Unix socket, the kernel says which user
// it runs as, and its first line says who the player is and where they really came from. Every
// door connection reaches the server from this host, so without that line the per-address limits
// would hold every ssh player of the world to one share.
extension Admission {
    /// What an unattested door connection counts under until the door says where its player is.
    static let unattestedDoorAddress = "door"

    /// A door connection, from allowed uids only, held to the connection limit; its address's
    /// share is checked once the door says which address it is (`attest`).
    func admitDoor(_ socket: LineSocket) {
        let uid: UInt32
        do { uid = try Sockets.peerUID(socket.fd) } catch {
            socket.close()
            return log.quietly("door-peer", "door connection closed: cannot tell its user: \(error)")
        }
        guard doorUIDs.contains(uid) else {
            refuse(socket, WireError(.notADoor, "Only the door's user may connect to this socket.", fatal: true))
            return log.quietly("door-uid", "refused a door connection from uid \(uid): not a door user")
        }
        if connections.count >= config.limits.maxConnections {
            refuse(socket, WireError(.serverFull, "The server is full; try again later.", fatal: true))
            return log.quietly("full", "refused a door connection: \(connections.count) connections is the limit")
        }
        admit(socket, address: Self.unattestedDoorAddress)?.door = .awaiting
    }

    /// The door says who its player is: from now on the connection counts as that address, under
    /// that address's limits, and speaks for that key (or a guest). Anyone else is refused.
    ///
    /// A house bot counts against its player's address, as a second terminal would, but is never
    /// refused for it: it comes only for a bot duel whose player the share and the rate admitted,
    /// so an address holds at most twice its share. Refused, it left the player at "Dealing…",
    /// or left a kept duel's seat empty until it forfeited, a rated win for a full share.
    func attest(_ attestation: DoorAttestation, id: JSONValue?, from connection: Connection) {
        guard connection.door == .awaiting, case .greeted = connection.session else {
            let reason = connection.door == .none
                ? "Only the ssh door may say who a player is, on its own socket; this connection is an ordinary client."
                : "The door speaks once, before joining."
            return connections.fail(connection, WireError(.notADoor, reason), id: id)
        }
        let address = attestation.address
        connection.door = .attested(attestation)
        if !attestation.houseBot, let refusal = addressRefusal(for: address, what: "a door connection for") {
            return connections.fail(connection, refusal, id: id)
        }
        connections.move(connection, to: address)
        connection.identity = attestation.fingerprint.map { .sshKey(fingerprint: $0) } ?? .guest
        log.quietly("door from \(address)", "#\(connection.id) came through the door from \(address) as \(attestation.fingerprint ?? "a guest")")
    }
}
