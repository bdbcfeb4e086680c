/// A connection's number for the lifetime of the server.
public typealias ConnectionID = Int

/// One encoded line and who receives it. Encoded once, however many receive it.
struct Delivery {
    /// Connections named one by one: the players, or a single one of them.
    var recipients: [ConnectionID]
    /// The match whose spectators all receive it as well. They are reached through the match's
    /// `SpectatorFeed`, not named one by one, so a crowd costs an event one append, not one per
    /// watcher.
    var spectatorsOf: String? = nil
    var bytes: [UInt8]
}
