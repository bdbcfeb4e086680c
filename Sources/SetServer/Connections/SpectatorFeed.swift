/// The lines every spectator of one match receives, kept once for all of them. Each spectator
/// holds an offset into it (`Connection.feedOffset`), so an event costs one append however many
/// watch; the bytes reach each watcher when its turn to be written comes.
struct SpectatorFeed {
    private var bytes: [UInt8] = []
    /// The offset of `bytes[0]` since the feed began: offsets stay valid as old bytes go.
    private(set) var start = 0

    /// The offset just past the last line: a spectator who starts watching starts here.
    var end: Int { start + bytes.count }

    /// Bytes kept, read or not.
    var keptBytes: Int { bytes.count }

    mutating func append(_ line: [UInt8]) { bytes.append(contentsOf: line) }

    /// What a spectator at `offset` has not been given yet. An offset from before `start` (it
    /// cannot happen while every spectator is counted in `discard(before:)`) gets what is kept.
    func unread(from offset: Int) -> ArraySlice<UInt8> {
        bytes[max(0, min(offset - start, bytes.count))...]
    }

    /// Forgets what every spectator has had: `offset` is the least offset of any of them.
    mutating func discard(before offset: Int) {
        let count = max(0, min(offset - start, bytes.count))
        guard count > 0 else { return }
        bytes.removeFirst(count)
        start += count
    }
}
