import SetDatabase
import SetRatings
import SetRules
import SetWire

/// The accounts log's records turned into rows, in memory, for the bulk import (issue 43): each
/// game's own rows (the game, its seats, each account's list entry, each new rated opponent) are
/// handed out in batches as the log is read, while what every later game moves (an account's
/// name and counts and best set, each rating with its standing, each set-time count) is summed
/// here and written once at the end. Pure: the same rows and totals `SQLAccountStore.insert`
/// writes game by game into an empty store.
struct ImportTally {
    /// One account as the log has made it so far.
    struct Account {
        var name: String
        /// The name skeleton it holds (`claimSkeleton`): nil for a look-alike of an older name.
        var skeleton: String?
        var games = 0, wins = 0, losses = 0, draws = 0, selfGames = 0
        var bestSetMs: Int?
        /// Each set's histogram bucket (`bucket(ofSetMs:)`), in the order played: 4 bytes a set
        /// keeps a million games' 25 million sets in 100 MB.
        var setBuckets: [UInt32] = []
        /// The rare bucket too large for 32 bits (a set that took over 49 days).
        var largeBuckets: [Int] = []
    }

    /// An account's rating in a variant and its standing, after its latest rated game.
    struct Rated {
        var rating: Rating
        var standing = Standing()
        /// Every different opponent (the `opponents` column); `standing` keeps the policy's few.
        var opponents: Swift.Set<Int> = []
    }

    struct RatingKey: Hashable, Comparable {
        var account: Int
        var variant: Variant

        static func < (a: RatingKey, b: RatingKey) -> Bool {
            (a.account, a.variant.rawValue) < (b.account, b.variant.rawValue)
        }
    }

    /// Rows ready to be written, table by table; accounts first, as the others refer to them.
    struct Rows {
        var accounts = ImportRows(ImportWriter.accounts)
        var games = ImportRows(ImportWriter.games)
        var seats = ImportRows(ImportWriter.seats)
        var accountGames = ImportRows(ImportWriter.accountGames)
        var ratedOpponents = ImportRows(ImportWriter.ratedOpponents)
    }

    let policy: RatingPolicy
    private(set) var accounts: [Int: Account] = [:]
    /// Each held name skeleton's account.
    private var owners: [String: Int] = [:]
    private(set) var rated: [RatingKey: Rated] = [:]
    /// The rows not handed out yet (`takeRows`).
    private(set) var pending = Rows()
    /// Games tallied, which is also the next game's id: an empty store numbers them from 0.
    private(set) var games = 0

    init(policy: RatingPolicy) {
        self.policy = policy
    }

    /// Takes one record the log check accepted.
    mutating func take(_ record: AccountLogRecord) {
        switch record {
        case .created(let id, let identity, let name, let bot, let wall):
            pending.accounts.append([.int(id), .text(identity.storedText), .text(name), .bool(bot), .int(wall)])
            accounts[id] = Account(name: name)
            claimSkeleton(of: id, name)
        case .renamed(let id, let name):
            guard accounts[id] != nil else { return }
            if let held = accounts[id]?.skeleton { owners[held] = nil }
            accounts[id]?.name = name
            accounts[id]?.skeleton = nil
            claimSkeleton(of: id, name)
        case .game(let game):
            // A game of guests alone stayed in the log only: nobody can ask about it.
            guard game.concernsAccounts else { return }
            add(game)
        }
    }

    /// Hands out the rows tallied since the last call.
    mutating func takeRows() -> Rows {
        var next = Rows()
        // Room for a batch like this one: arrays grown from nothing each batch were copied at every doubling.
        next.accounts.reserve(rows: pending.accounts.count)
        next.games.reserve(rows: pending.games.count)
        next.seats.reserve(rows: pending.seats.count)
        next.accountGames.reserve(rows: pending.accountGames.count)
        next.ratedOpponents.reserve(rows: pending.ratedOpponents.count)
        defer { pending = next }
        return pending
    }

    private mutating func claimSkeleton(of id: Int, _ name: String) {
        let skeleton = PlayerName.skeleton(name)
        guard owners[skeleton] == nil else { return }
        owners[skeleton] = id
        accounts[id]?.skeleton = skeleton
    }

    /// A game's rows and what it moves, as `SQLAccountStore.insert` writes them.
    private mutating func add(_ game: GameRecord) {
        let gameID = games
        games += 1
        pending.games.append([.int(gameID), .text(game.commitment), .text(game.match), .int(game.game), .text(game.mode.rawValue),
                              .text(game.variant.rawValue), .bool(game.rated), .text(game.outcome.rawValue), .text(game.reason.rawValue),
                              .optional(game.winner?.rawValue), .int(game.endedAt), .int(game.durationMs), .int(game.wallSeconds),
                              .text(game.journal)])
        for (seat, player) in game.players.enumerated() {
            pending.seats.append([.int(gameID), .int(seat), .optional(player.account), .text(player.name), .int(player.points), .int(player.sets),
                                  .text(Self.commaSeparated(player.setTimes)), .optional(player.before?.rating),
                                  .optional(player.before?.deviation), .optional(player.before?.volatility), .optional(player.after?.rating),
                                  .optional(player.after?.deviation), .optional(player.after?.volatility)])
        }
        for (seat, player) in game.players.enumerated() {
            guard let id = player.account, let index = accounts.index(forKey: id) else { continue }
            // Changed where it is kept: a copy taken out and put back would copy its set times on every game.
            Self.count(player.setTimes, into: &accounts.values[index])
            // One account in both seats played itself: the game is its once, neither won nor lost.
            let playedItself = game.players.count == 2 && game.players[0].account == game.players[1].account
            guard !playedItself || seat == 0 else { continue }
            let opponent = game.players.count == 2 ? game.players[1 - seat].account : nil
            let score = playedItself ? nil : game.score(of: seat)
            let result = playedItself ? "self" : score.map(SQLAccountStore.resultText) ?? game.outcome.rawValue
            pending.accountGames.append([.int(id), .int(accounts.values[index].games), .int(gameID), .int(seat), .optional(opponent),
                                         .text(result), .bool(game.rated), .int(game.wallSeconds)])
            Self.countGame(score: score, playedItself: playedItself, into: &accounts.values[index])
            if game.rated, let after = player.after {
                // An opponent the policy does not count (`countsOpponent`) is nobody to the standing.
                let counted = game.players.count == 2 && policy.countsOpponent(ratedBefore: game.players[1 - seat].before) ? opponent : nil
                rate(id, in: game.variant, to: after, against: counted, wall: game.wallSeconds)
            }
        }
    }

    private mutating func rate(_ id: Int, in variant: Variant, to rating: Rating, against opponent: Int?, wall: Int64) {
        // Changed in place (`default:`), as the accounts are: no copy of the opponents per game.
        let cap = policy.leaderboardOpponents
        let newOpponent = Self.rate(&rated[RatingKey(account: id, variant: variant), default: Rated(rating: rating)], to: rating,
                                    against: opponent, wall: wall, keeping: cap)
        if let opponent, newOpponent { pending.ratedOpponents.append([.int(id), .text(variant.rawValue), .int(opponent)]) }
    }

    /// Moves one rating to `rating` after a game against `opponent`; true when that opponent is new to it.
    private static func rate(_ entry: inout Rated, to rating: Rating, against opponent: Int?, wall: Int64, keeping cap: Int) -> Bool {
        entry.rating = rating
        entry.standing.add(opponent: opponent, wall: wall, keeping: cap)
        guard let opponent else { return false }
        return entry.opponents.insert(opponent).inserted
    }

    /// Counts one game's result into its account.
    private static func countGame(score: Score?, playedItself: Bool, into account: inout Account) {
        account.games += 1
        if score == .win { account.wins += 1 }
        if score == .loss { account.losses += 1 }
        if score == .draw { account.draws += 1 }
        if playedItself { account.selfGames += 1 }
    }

    /// `[1200, 3400]` as "1200,3400", as `SQLAccountStore.insert` writes a seat's set times, in one
    /// string rather than one a time and an array of them.
    static func commaSeparated(_ times: [Int]) -> String {
        var text = ""
        text.reserveCapacity(times.count * 6)
        for (index, time) in times.enumerated() {
            if index > 0 { text.append(",") }
            text.append(String(time))
        }
        return text
    }

    /// The histogram bucket of a set's time: by tenth of a second (kept as its milliseconds)
    /// up to 25.4 s, exact beyond, as `set_times` counts them.
    static func bucket(ofSetMs time: Int) -> Int {
        let ms = max(0, time)
        let tenths = (ms + 50) / 100
        return tenths < 255 ? tenths * 100 : ms
    }

    private static func count(_ times: [Int], into account: inout Account) {
        guard let best = times.map({ max(0, $0) }).min() else { return }
        account.bestSetMs = min(account.bestSetMs ?? best, best)
        for time in times {
            let bucket = bucket(ofSetMs: time)
            if let small = UInt32(exactly: bucket) { account.setBuckets.append(small) } else { account.largeBuckets.append(bucket) }
        }
    }
}

// What the import writes once every game is read.
extension ImportTally {
    /// Each account's final name, skeleton, counts and best set, in id order:
    /// `id, name, name_skeleton, games, wins, losses, draws, self_games, best_set_ms`.
    func accountTotals() -> ImportRows {
        var rows = ImportRows(ImportWriter.accountTotals)
        for id in accounts.keys.sorted() {
            guard let a = accounts[id] else { continue }
            rows.append([.int(id), .text(a.name), a.skeleton.map(SQLValue.text) ?? .null, .int(a.games), .int(a.wins), .int(a.losses),
                         .int(a.draws), .int(a.selfGames), .optional(a.bestSetMs)])
        }
        return rows
    }

    /// Each rating with its standing, as the `ratings` table holds them after the last rated game.
    func ratingRows() -> ImportRows {
        var rows = ImportRows(ImportWriter.ratings)
        // The keys sorted, not the entries: sorting those moved each one's opponents and standing.
        for key in rated.keys.sorted() {
            guard let entry = rated[key] else { continue }
            rows.append([.int(key.account), .text(key.variant.rawValue), .double(entry.rating.rating), .double(entry.rating.deviation),
                         .double(entry.rating.volatility), .int(entry.standing.games), .int(entry.opponents.count), .int(entry.standing.firstWall),
                         .int(entry.standing.lastWall), .bool(policy.isListed(entry.rating, entry.standing))])
        }
        return rows
    }

    /// The ids of the accounts, in order.
    var accountIDs: [Int] { accounts.keys.sorted() }

    /// Appends one account's `set_times` rows (`account_id, ms, sets`), by time, to `rows`.
    func appendSetTimeRows(of id: Int, to rows: inout ImportRows) {
        guard let account = accounts[id] else { return }
        var run: (bucket: Int, count: Int)?
        // Sorted, then counted run by run: cheaper than a dictionary per account.
        for bucket in account.setBuckets.sorted().lazy.map(Int.init) + account.largeBuckets.sorted() {
            if let held = run, held.bucket == bucket { run?.count += 1; continue }
            if let held = run { rows.append(id, held.bucket, held.count) }
            run = (bucket, 1)
        }
        if let held = run { rows.append(id, held.bucket, held.count) }
    }
}
