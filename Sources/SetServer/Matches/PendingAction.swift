import SetRules
import SetWire

/// A player's `act` request, read and not yet performed. The actions one read brings (a claim
/// and its three picks, from a fast client) are performed together: their journal records go in
/// one write (`Server.act`, `MatchRoom.changes`).
struct PendingAction {
    var action: Action
    /// The seat the request names, if it names one: a request for another seat is refused.
    var claimedSeat: Seat?
    /// A claim's last event seen, which tells which table it claims (`MatchHost.act`).
    var seen: Int?
    var id: JSONValue?
    /// The match's seq when the read that carried it began, if its sender sat in the match then:
    /// every event up to it had been sent to the sender. 0 for a line read before its sender sat
    /// (behind its join); nil where nobody knows (`MatchHost.unseenTableRefusal`).
    var knownSeq: Int?
}
