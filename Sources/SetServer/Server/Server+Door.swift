import SetNet
import SetRules
import SetWire

// The ssh door's socket: `setgame door` connects over a Unix socket, the kernel says which user
// it runs as, and its first line says who the player is and where they really came from. Every
// door connection reaches the server from this host, so without that line the per-address limits
// would hold every ssh player of the world to one share.
extension Server {
    /// What an unattested door connection counts under until the door says where its player is.
    static let unattestedDoorAddress = "door"

    /// Accepts what waits on the door socket, from allowed uids only.
    func acceptDoors() {
        guard let doorListener else { return }
        for _ in 0..<Self.acceptsPerReadiness {
            let accepted: LineSocket?
            do { accepted = try doorListener.accept() } catch {
                if error.isOutOfDescriptors { return outOfDescriptors(error) }
                logQuietly("door-accept", "door accept failed: \(error)")
                return
            }
            guard let socket = accepted else { return }
            let uid: UInt32
            do { uid = try Sockets.peerUID(socket.fd) } catch {
                socket.close()
                logQuietly("door-peer", "door connection closed: cannot tell its user: \(error)")
                continue
            }
            guard doorUIDs.contains(uid) else {
                refuse(socket, WireError(.notADoor, "Only the door's user may connect to this socket.", fatal: true))
                logQuietly("door-uid", "refused a door connection from uid \(uid): not a door user")
                continue
            }
            if connections.count >= config.limits.maxConnections {
                refuse(socket, WireError(.serverFull, "The server is full; try again later.", fatal: true))
                logQuietly("full", "refused a door connection: \(connections.count) connections is the limit")
                continue
            }
            admit(socket, address: Self.unattestedDoorAddress)?.door = .awaiting
        }
    }

    /// The door says who its player is: from now on the connection counts as that address, under
    /// that address's limits, and speaks for that key (or a guest). Anyone else is refused.
    func attest(_ attestation: DoorAttestation, id: JSONValue?, from connection: Connection) {
        guard connection.door == .awaiting, case .greeted = connection.session else {
            let reason = connection.door == .none
                ? "Only the ssh door may say who a player is, on its own socket; this connection is an ordinary client."
                : "The door speaks once, before joining."
            return fail(connection, WireError(.notADoor, reason), id: id)
        }
        let address = attestation.address
        connection.door = .attested(attestation)
        if let refusal = addressRefusal(for: address, what: "a door connection for") {
            return fail(connection, refusal, id: id)
        }
        forget(address: connection.address)
        connection.address = address
        connectionsByAddress[address, default: 0] += 1
        connection.identity = attestation.fingerprint.map { .sshKey(fingerprint: $0) } ?? .guest
        logQuietly("door from \(address)", "#\(connection.id) came through the door from \(address) as \(attestation.fingerprint ?? "a guest")")
    }
}
