import SetRules
import SetWire

/// The lobby and this node as a join sees them, from the server's own state, for one connection.
struct ServerJoinWorld: JoinWorld {
    unowned let server: Server
    let connection: Connection

    var isNode: Bool { server.nodes != nil }
    var draining: Bool { server.nodes?.lease.draining ?? false }
    var ownLeaseLapsed: Bool { if case .lapsed = server.nodes?.ownLease { true } else { false } }
    var wallNowMs: Int64 { server.nodes?.wallNow ?? 0 }
    var nodeName: String { server.nodes?.me.name ?? "" }
    var drainedRefusal: WireError { server.nodes?.drainedRefusal ?? WireError(.serverFull, "This server makes no new matches.") }
    var cannotPair: WireError { server.nodes?.cannotPair ?? WireError(.nodeAway, "This server cannot pair players right now.") }
    var identity: PlayerIdentity { connection.identity }
    var claimant: NameClaimant { connection.nameClaimant }
    var doorBotMatch: String? { if case .attested(let attestation) = connection.door { attestation.match } else { nil } }
    var reservedNames: ReservedNames { server.accounts.reservedNames }

    func pairingJoin(_ join: JoinRequest) -> JoinRequest? { server.pairingJoin(join) }
    func holdsHere(_ join: JoinRequest) -> Bool { server.lobby.holdsHere(join) }

    func lapsedRefusal(_ join: JoinRequest) -> WireError? {
        guard let match = join.match ?? join.token.flatMap(server.lobby.matchName(ofToken:)) else { return nil }
        return server.nodes?.lapsedRefusal(match)
    }

    func placementRefusal() -> WireError? {
        server.nodes?.placementRefusal(for: connection.address, cap: server.config.addressLimits.placements)
    }

    func takesNewSeat(_ join: JoinRequest) -> Bool { server.lobby.takesNewSeat(join) }
    func releaseIfUnused(_ room: MatchRoom) { server.lobby.releaseIfUnused(room) }

    func seating(_ join: JoinRequest) -> Result<JoinSeating<MatchRoom>, WireError> {
        server.lobby.seating(for: join, address: connection.address)
    }

    func isHoldingBack(_ room: MatchRoom) -> Bool { room.isHoldingBack }
    func isCurrent(_ room: MatchRoom) -> Bool { server.lobby.rooms[room.host.name] === room }
    func seatRefusal(in room: MatchRoom, requested seat: Seat?) -> WireError? { room.host.seatRefusal(requested: seat) }
    func holder(of name: String, joining join: JoinRequest) -> SeatHolder? { server.lobby.holder(of: name, joining: join) }
    func recordRefusal(_ kind: AccountRecordKind) -> WireError? { server.recordRefusal(kind, from: connection) }
}
