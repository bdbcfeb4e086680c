import SetRules

/// Who has output waiting, in the order it is written. Players (and connections not yet in a
/// match) go first, every turn, all of them. Spectators follow, a slice per turn, so a crowd never
/// holds the players up for long. A match's events reach its spectators through its
/// `SpectatorFeed`: when the feed grows, the match has news, and its spectators are queued once
/// for the next round, however many events came. The spectators of a crowded match (`crowdSize`
/// or more) get rounds at most every `crowdRoundMs`, so thousands of watchers cost a bounded
/// number of writes a second and each event costs the loop one append.
struct OutputQueues {
    enum Lane {
        case player
        case spectator
        case crowd
    }

    /// A FIFO read a slice at a time; a round is what was queued when it began.
    struct SliceQueue {
        private(set) var ids: [ConnectionID] = []
        private(set) var head = 0
        private(set) var roundEnd = 0

        var isEmpty: Bool { head == ids.count }
        var inRound: Bool { head < roundEnd }

        mutating func append(_ id: ConnectionID) { ids.append(id) }

        mutating func append(contentsOf more: [ConnectionID]) { ids.append(contentsOf: more) }

        mutating func beginRound() { roundEnd = ids.count }

        /// Up to `count` ids of the current round.
        mutating func take(_ count: Int) -> ArraySlice<ConnectionID> {
            let end = min(roundEnd, head + count)
            defer {
                head = end
                if head == ids.count {
                    ids.removeAll(keepingCapacity: true)
                    head = 0
                    roundEnd = 0
                } else if head > 4_096 && head * 2 > ids.count {
                    ids.removeFirst(head)
                    roundEnd -= head
                    head = 0
                }
            }
            return ids[head..<end]
        }
    }

    static let writesPerTurn = 32
    static let crowdSize = 256
    let crowdRoundMs: Int64
    private var players: [ConnectionID] = []
    private var spectators = SliceQueue()
    private var crowd = SliceQueue()
    private var lastCrowdRound: Instant?
    /// Matches whose feeds grew since their spectators were last queued.
    private var news: Set<String> = []
    private var crowdNews: Set<String> = []

    init(crowdRoundMs: Int64) { self.crowdRoundMs = crowdRoundMs }

    mutating func add(_ id: ConnectionID, _ lane: Lane) {
        switch lane {
        case .player: players.append(id)
        case .spectator: spectators.append(id)
        case .crowd: crowd.append(id)
        }
    }

    /// A match's spectator feed grew: its spectators are due in the next round of their lane.
    mutating func feedGrew(_ match: String, crowded: Bool) {
        if crowded { crowdNews.insert(match) } else { news.insert(match) }
    }

    /// The connections to write this turn, players first. `watchers` names the spectators of a
    /// match with news when its round begins.
    mutating func takeDue(at now: Instant, watchers: (String) -> [ConnectionID]) -> [ConnectionID] {
        var due = players
        players.removeAll(keepingCapacity: true)
        for match in news { spectators.append(contentsOf: watchers(match)) }
        news.removeAll(keepingCapacity: true)
        if !spectators.inRound { spectators.beginRound() }
        due += spectators.take(Self.writesPerTurn)
        if !crowd.inRound, !crowd.isEmpty || !crowdNews.isEmpty, crowdRoundAllowed(at: now) {
            for match in crowdNews { crowd.append(contentsOf: watchers(match)) }
            crowdNews.removeAll(keepingCapacity: true)
            crowd.beginRound()
            lastCrowdRound = now
        }
        if crowd.inRound { due += crowd.take(Self.writesPerTurn) }
        return due
    }

    private func crowdRoundAllowed(at now: Instant) -> Bool {
        lastCrowdRound.map { now.milliseconds(since: $0) >= crowdRoundMs || now < $0 } ?? true
    }

    /// How long the loop may sleep before output is due: 0 while slices remain, nil when none waits.
    func waitMilliseconds(at now: Instant) -> Int64? {
        if !players.isEmpty || !spectators.isEmpty || !news.isEmpty || crowd.inRound { return 0 }
        guard !crowd.isEmpty || !crowdNews.isEmpty else { return nil }
        guard let last = lastCrowdRound else { return 0 }
        return max(0, crowdRoundMs - now.milliseconds(since: last))
    }
}
