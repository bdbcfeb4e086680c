/// A connection's number for the lifetime of the server.
public typealias ConnectionID = Int

/// One encoded line and who receives it. Encoded once, however many receive it.
struct Delivery {
    var recipients: [ConnectionID]
    var bytes: [UInt8]
}
