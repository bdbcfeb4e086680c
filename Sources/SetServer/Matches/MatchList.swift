import SetRules
import SetWire

/// The `list` reply, bounded and cheap however many matches there are: the matches in a useful
/// order (live duels with the most spectators first), cut into pages at a cursor. The ordering is
/// rebuilt at most once per `cacheMs`, and each page is encoded once per ordering.
final class MatchList {
    /// Where a match stands in the list; also the cursor a page ends at.
    struct Key: Comparable {
        /// 0 a duel being played, 1 a duel waiting for a player, 2 a solo game, 3 a match that is over.
        var rank: Int
        var spectators: Int
        var name: String

        static func < (a: Key, b: Key) -> Bool {
            if a.rank != b.rank { return a.rank < b.rank }
            if a.spectators != b.spectators { return a.spectators > b.spectators }
            // Names are ASCII (the wire allows nothing else), for which String's `<` compares the
            // bytes directly: the same order as byte order, without walking a generic view.
            return a.name < b.name
        }

        /// "rank.spectators.name": what `next` says and `after` gives back.
        var cursor: String { "\(rank).\(spectators).\(name)" }

        init(rank: Int, spectators: Int, name: String) {
            self.rank = rank
            self.spectators = spectators
            self.name = name
        }

        init?(cursor: String) {
            let parts = cursor.split(separator: ".", maxSplits: 2, omittingEmptySubsequences: false)
            guard parts.count == 3, let rank = Int(parts[0]), let spectators = Int(parts[1]) else { return nil }
            self.init(rank: rank, spectators: spectators, name: String(parts[2]))
        }

        /// Reads the room's host field by field: copying the whole host for each of thousands of
        /// matches made a rebuild cost milliseconds.
        init(_ room: MatchRoom) {
            let rank = switch (room.host.mode, room.host.phase) {
            case (_, .over): 3
            case (.solo, _): 2
            case (.duel, .waiting): 1
            case (.duel, .playing): 0
            }
            self.init(rank: rank, spectators: room.host.spectators.count, name: room.host.name)
        }

        /// Another node's match, from the listing its node wrote to the store.
        init(_ listing: MatchListing) {
            let rank = switch (listing.mode, listing.phase) {
            case (_, .over): 3
            case (.solo, _): 2
            case (.duel, .waiting): 1
            case (.duel, .playing): 0
            }
            self.init(rank: rank, spectators: listing.spectators, name: listing.name)
        }
    }

    /// A listed match: a room here, or another node's match as its node wrote it.
    enum Entry {
        case here(MatchRoom)
        case elsewhere(MatchListing)

        var listing: MatchListing {
            switch self {
            case .here(let room): room.host.listing
            case .elsewhere(let listing): listing
            }
        }
    }

    let cacheMs: Int64
    /// The ordering: keys only, so a rebuild allocates nothing per match; a page lists its
    /// matches as they are when it is encoded.
    private var ordered: [(key: Key, entry: Entry)] = []
    private var builtAt: Instant?
    /// Encoded pages of the current ordering, without the request id, by cursor and limit.
    private var pages: [String: [UInt8]] = [:]
    static let maxCachedPages = 256
    /// How many times the ordering was rebuilt, for tests that check the cache is used.
    private(set) var rebuilds = 0

    init(cacheMs: Int64) { self.cacheMs = cacheMs }

    /// One page as a whole `matches` line, newline included, echoing `id`. `rooms` is called
    /// only when the ordering is rebuilt.
    func line(after cursor: Key?, limit: Int, id: JSONValue?, at now: Instant, elsewhere: [MatchListing] = [],
              rooms: () -> [MatchRoom]) -> [UInt8] {
        if builtAt.map({ now.milliseconds(since: $0) >= cacheMs || now < $0 }) ?? true {
            ordered = (rooms().map { (Key($0), Entry.here($0)) } + elsewhere.map { (Key($0), Entry.elsewhere($0)) }).sorted { $0.key < $1.key }
            builtAt = now
            pages.removeAll(keepingCapacity: true)
            rebuilds += 1
        }
        let cacheKey = "\(cursor?.cursor ?? "")|\(limit)"
        let body: [UInt8]
        if let cached = pages[cacheKey] {
            body = cached
        } else {
            body = encodePage(after: cursor, limit: limit)
            if pages.count < Self.maxCachedPages { pages[cacheKey] = body }
        }
        guard let id else { return body }
        // Keys are sorted and "id" comes first: splice it in after the opening brace.
        var line: [UInt8] = Array("{\"id\":".utf8)
        line.reserveCapacity(body.count + 80)
        JSONWriter.write(id, into: &line)
        line.append(UInt8(ascii: ","))
        line += body.dropFirst()
        return line
    }

    private func encodePage(after cursor: Key?, limit: Int) -> [UInt8] {
        // The first entry after the cursor, by binary search: a deep page costs no more.
        var start = 0, high = ordered.count
        if let cursor {
            while start < high {
                let middle = (start + high) / 2
                if cursor < ordered[middle].key { high = middle } else { start = middle + 1 }
            }
        }
        let end = min(ordered.count, start + limit)
        let page = ordered[start..<end]
        let next = end < ordered.count ? page.last?.key.cursor : nil
        return ServerMessageCoding.line(.matches(page.map(\.entry.listing), next: next, id: nil))
    }
}
