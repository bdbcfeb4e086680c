import SetRules

/// Everything a client can know about a match: built from a snapshot, kept current by applying
/// events in `seq` order. Players and spectators that saw the same events hold equal views.
package struct MatchView: Hashable, Sendable {
    package var match: String
    package var seq: Int
    /// Server time of the snapshot or of the last event applied.
    package var time: Int64
    package var mode: Mode
    package var phase: MatchPhase
    package var game: Int
    package var players: [PlayerInfo]
    package var spectators: Int
    package var table: [Card]
    package var deck: Int
    package var selection: [Card]
    package var selectionSeat: Seat?
    package var window: Window?
    /// Solo only: the judged trio on show until the next touch.
    package var shown: Match.ShownTrio?
    package var tableChangedAt: Int64
    package var rules: RuleSettings
    package var commitment: String?
    package var result: MatchResult?
    /// Revealed once a game is over.
    package var seed: UInt64?
    package var rematchAsked: [Seat]
    /// Spectators only.
    package var setsOnTable: Int?
    /// While a player is away: the server time at which their seat is forfeited.
    package var forfeitAt: Int64?
    /// Which game the match plays.
    package var variant: Variant
    /// Set-Chain: the set taken just before, apart from the table (see `Match.chain`).
    package var chain: [Card]
    /// Each seat's round trip as the server measured it (lag compensation on); empty otherwise.
    package var roundTripMs: [Int64?] = []
    /// Once a rated game is over: how it moved each seat's rating; empty otherwise.
    package var lastRatings: [RatingChange] = []

    package init(match: String, seq: Int, time: Int64, mode: Mode, phase: MatchPhase, game: Int, players: [PlayerInfo],
                spectators: Int, table: [Card], deck: Int, selection: [Card], selectionSeat: Seat?, window: Window?,
                shown: Match.ShownTrio?, tableChangedAt: Int64, rules: RuleSettings, commitment: String?,
                result: MatchResult?, seed: UInt64?, rematchAsked: [Seat], setsOnTable: Int?, forfeitAt: Int64? = nil,
                variant: Variant = .classic, chain: [Card] = []) {
        self.variant = variant
        self.chain = chain
        self.match = match
        self.seq = seq
        self.time = time
        self.mode = mode
        self.phase = phase
        self.game = game
        self.players = players
        self.spectators = spectators
        self.table = table
        self.deck = deck
        self.selection = selection
        self.selectionSeat = selectionSeat
        self.window = window
        self.shown = shown
        self.tableChangedAt = tableChangedAt
        self.rules = rules
        self.commitment = commitment
        self.result = result
        self.seed = seed
        self.rematchAsked = rematchAsked
        self.setsOnTable = setsOnTable
        self.forfeitAt = forfeitAt
    }

    /// Every valid pick a player could make now, by the variant's rules.
    package var combinations: [[Card]] { variant.combinations(table: shownFreeTable, chain: chain) }

    /// The table without a solo set that is on show and about to leave.
    package var shownFreeTable: [Card] {
        guard let shown, shown.isSet else { return table }
        return table.filter { !shown.cards.contains($0) }
    }

    package func player(_ seat: Seat) -> PlayerInfo? { players.first { $0.seat == seat } }

    package var scores: [Int] { players.sorted { $0.seat < $1.seat }.map(\.score) }

    /// Whether `event` is the next one; a client that gets `false` asks for a snapshot.
    package func follows(_ event: WireEvent) -> Bool { event.seq == seq + 1 }

    /// Applies the next event. Returns false, changing nothing, when the event is not the next.
    @discardableResult
    package mutating func apply(_ event: WireEvent) -> Bool {
        guard follows(event) else { return false }
        seq = event.seq
        time = event.time
        switch event.body {
        case .rules(let rulesEvent): apply(rulesEvent, at: event.time)
        case .gameOver(let ending, let seed, let ratings):
            result = ending
            for change in ratings {
                guard let index = players.firstIndex(where: { $0.seat == change.seat }) else { continue }
                players[index].rating = change.after
                players[index].provisional = change.provisional
            }
            lastRatings = ratings
            self.seed = seed
            phase = .over
            window = nil
            selection = []
            selectionSeat = nil
            shown = nil
            forfeitAt = nil
            setScores(ending.scores)
        case .gameStarted(let start):
            lastRatings = []
            game = start.game
            table = start.table
            deck = start.deck
            setScores(start.scores)
            commitment = start.commitment
            phase = .playing
            result = nil
            seed = nil
            rematchAsked = []
            selection = []
            selectionSeat = nil
            window = nil
            shown = nil
            chain = []
            tableChangedAt = event.time
        case .playerJoined(let seat, let name, let rating, let provisional):
            players.removeAll { $0.seat == seat }
            players.append(PlayerInfo(seat: seat, name: name, present: true, score: 0, rating: rating, provisional: provisional))
            players.sort { $0.seat < $1.seat }
        case .presence(let seat, let present, let deadline):
            if let index = players.firstIndex(where: { $0.seat == seat }) { players[index].present = present }
            forfeitAt = deadline
        case .resumed(let resumedWindow, let changedAt):
            window = resumedWindow
            tableChangedAt = changedAt
            forfeitAt = nil
        case .spectators(let count):
            spectators = count
        }
        return true
    }

    private mutating func apply(_ event: MatchEvent, at time: Int64) {
        switch event {
        case .selectionChanged(let seat, let cards):
            if let trio = shown, trio.cards != cards { shown = nil }
            selection = cards
            selectionSeat = cards.isEmpty ? nil : seat
        case .windowOpened(let opened): window = opened
        case .windowClosed: window = nil
        case .setTaken(let seat, let cards, _, let score):
            setScore(score, of: seat)
            if variant == .chain { chain = cards }
            if mode == .solo { shown = Match.ShownTrio(cards: cards, isSet: true) }
        case .notASet(let seat, let cards, _, let score):
            setScore(score, of: seat)
            if mode == .solo { shown = Match.ShownTrio(cards: cards, isSet: false) }
        case .penalised(let seat, _, _, let score), .hintShown(let seat, _, _, let score):
            setScore(score, of: seat)
        case .tableChanged(_, _, let newTable, let deckCount):
            table = newTable
            deck = deckCount
            tableChangedAt = time
            shown = nil
        case .matchEnded(let ending):
            result = ending
            phase = .over
        case .rematchRequested(let seat): rematchAsked.append(seat)
        case .rematchAgreed: break
        }
    }

    private mutating func setScore(_ score: Int, of seat: Seat) {
        if let index = players.firstIndex(where: { $0.seat == seat }) { players[index].score = score }
    }

    private mutating func setScores(_ scores: [Int]) {
        for (index, score) in scores.enumerated() {
            if let seat = Seat(rawValue: index) { setScore(score, of: seat) }
        }
    }
}
