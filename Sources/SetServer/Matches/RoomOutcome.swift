import SetRules

/// Everything one input to a room asks of the server, performed in one place
/// (`Server.apply(_:of:)`): the reply for whoever sent it, what to send, when to wake the match
/// next, when its spectator count may be announced, and whether it is now idle.
struct RoomOutcome<Reply> {
    /// The answer for the connection whose input it was (`JoinReply`, `ActReply`...).
    var reply: Reply
    /// What to send, each line encoded once for all its recipients.
    var deliveries: [Delivery]
    /// When the match's timers have work next; nil: none.
    var nextDeadline: Instant?
    /// When a changed spectator count may be announced; nil when the players know it.
    var announcementDue: Instant?
    /// Whether the match is worth keeping; an idle one is forgotten by the lobby.
    var idleness: Idleness
    /// The spectators of a match freed before it began, to be let go with a reason.
    var released: [ConnectionID]
    /// A game ended whose record the server is to commit; what it said waits in the room until
    /// then (`MatchRoom.publish`).
    var finished: FinishedGame? = nil
}

/// Whether a match is still worth keeping once nobody holds it.
enum Idleness: Equatable {
    case inUse
    /// Nobody ever moved and no player is present: it goes, and its file with it.
    case abandoned
    /// Nobody is connected and it is not being played: its journal goes to `finished/`.
    case finished
}
