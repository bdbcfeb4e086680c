import SetWire

// Door bot matches (`bot-…`): as `setgame play` keeps its match for its tokens, the door keeps a
// bot duel for the connections it started for it, named on their door lines.
extension Server {
    /// Why a join may not take a new seat in the door bot match it names: such a match seats
    /// only the connections the door started for it (the player and its house bot), so nobody
    /// else can wait there for a key's bot (whose match name anyone can compute).
    func botMatchRefusal(_ join: JoinRequest, on connection: Connection) -> WireError? {
        guard join.role == .player, join.token == nil, let name = join.match, DoorAttestation.isBotMatch(name) else { return nil }
        if case .attested(let attestation) = connection.door, attestation.match == name { return nil }
        return WireError(.matchFull, "Match \"\(name)\" is a door bot match: its seats are kept for the ssh player it was started for and their bot; watch it instead.")
    }
}
