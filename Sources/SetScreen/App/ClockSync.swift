import SetRules

/// The server's clock as seen from here. Window deadlines are absolute server times, so a
/// countdown needs the offset between the clocks; each pong gives a sample, and the sample with
/// the shortest round trip is the least distorted by queueing, so it wins.
struct ClockSync: Hashable, Sendable {
    /// Server time minus local time, in milliseconds.
    private(set) var offset: Int64 = 0
    /// The latest round trip, in milliseconds; nil before the first pong.
    private(set) var roundTrip: Int64?
    private var samples: [Sample] = []

    private struct Sample: Hashable, Sendable {
        var roundTrip: Int64
        var offset: Int64
    }

    /// How many recent samples compete; old ones leave so a drifting clock is followed.
    static let window = 8
    /// A pong answering a ping older than this, or one from the future, answers no ping of ours.
    static let longestRoundTripMs: Int64 = 60_000

    init() {}

    /// A first guess from a connection's welcome, until its own pongs measure better.
    mutating func welcome(serverTime: Int64, at now: Int64) {
        // Each connection may reach another clock: a server restarted on its data folder goes on
        // from its lease, behind the old clock by the downtime, so the old samples measure nothing.
        samples.removeAll()
        offset = serverTime.saturatingSubtracting(now)
    }

    /// A pong: the server read the ping at `serverTime`; we sent it at `sentAt`, got it at `now`.
    /// `sentAt` comes back from the server, so a value we cannot have sent is ignored.
    mutating func pong(serverTime: Int64, sentAt: Int64, at now: Int64) {
        let trip = now.saturatingSubtracting(sentAt)
        guard (0...Self.longestRoundTripMs).contains(trip) else { return }
        roundTrip = trip
        samples.append(Sample(roundTrip: trip, offset: serverTime.saturatingSubtracting(sentAt + trip / 2)))
        if samples.count > Self.window { samples.removeFirst(samples.count - Self.window) }
        offset = samples.min { $0.roundTrip < $1.roundTrip }!.offset
    }

    /// The server's time now, in its milliseconds.
    func serverTime(at now: Int64) -> Int64 { now.saturatingAdding(offset) }

    /// Our local time at a server instant.
    func localTime(ofServer time: Int64) -> Int64 { time.saturatingSubtracting(offset) }
}
