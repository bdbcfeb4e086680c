/// A connection's number for the lifetime of the server.
package typealias ConnectionID = Int

/// One encoded line and who receives it. Encoded once, however many receive it.
struct Delivery {
    /// Connections named one by one: the players, or a single one of them.
    var recipients: [ConnectionID]
    /// The match whose spectators all receive it as well. The room has put it in their
    /// `SpectatorFeed`, so a crowd costs a line one append, not one per watcher.
    var spectatorsOf: MatchRoom? = nil
    var bytes: [UInt8]
}
