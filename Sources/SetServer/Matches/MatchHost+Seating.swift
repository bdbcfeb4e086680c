import SetRules
import SetWire

// Which seat a newcomer would take, asked before the join: the server makes or renames an
// account only for a join that will be seated.
extension MatchHost {
    /// The seat a join asking for `requested` (nil: any) would take, or why it would be refused.
    func seat(for requested: Seat?) -> Result<Seat, WireError> {
        if stalledAt != nil { return .failure(Self.journalStalled) }
        if let requested {
            guard mode.seats.contains(requested) else {
                return .failure(WireError(.noSuchSeat, "A \(mode.rawValue) match has no seat \(requested.rawValue)."))
            }
            guard seats[requested.rawValue] == nil else {
                return .failure(WireError(.seatTaken, "Seat \(requested.rawValue) is taken; resume it with its token.",
                                          details: ["seat": .int(Int64(requested.rawValue))]))
            }
            return .success(requested)
        }
        guard let first = mode.seats.first(where: { seats[$0.rawValue] == nil }) else {
            return .failure(WireError(.matchFull, "Match \"\(name)\" has no free seat; watch it as a spectator."))
        }
        return .success(first)
    }

    /// Why a join asking for `requested` would be refused a seat, if it would.
    func seatRefusal(requested: Seat?) -> WireError? {
        if case .failure(let refusal) = seat(for: requested) { return refusal }
        return nil
    }
}
