import SetRatings
import SetRules
import SetWire

/// Everything the accounts log says, in memory and derived: accounts by id, identity and name,
/// each one's ratings per variant and its games. It does no I/O: `Accounts` writes a record
/// first and then applies it here, and a start rebuilds the book by applying the log.
struct AccountBook {
    struct Account: Equatable {
        let id: Int
        let storedIdentity: StoredIdentity
        var name: String
        let bot: Bool
        let createdWall: Int64
        var ratings = VariantRatings()
        /// Indexes into `games`, oldest first (4 bytes each: a million games' index must be small).
        var games: [Int32] = []
        var wins = 0, losses = 0, draws = 0
        /// Every set's time, for the best and the median.
        var setTimes = SetTimes()

        init(id: Int, identity: PlayerIdentity, name: String, bot: Bool, createdWall: Int64) {
            (self.id, storedIdentity, self.name, self.bot, self.createdWall) = (id, StoredIdentity(identity), name, bot, createdWall)
        }

        var identity: PlayerIdentity { storedIdentity.identity }

        func rating(_ variant: Variant) -> Rating { ratings[variant] ?? .initial }
    }

    private(set) var accounts = ChunkedArray<Account>(chunkSize: 4_096)
    private(set) var games = GameStore()
    /// How many rated games were applied: a ranking computed at one count holds until it changes.
    private(set) var ratedGames = 0
    private var byIdentity: [StoredIdentity: Int32] = [:]
    /// Names compare by their skeleton (`PlayerName.skeleton`): "Ann", "ann" and Cyrillic "Аnn"
    /// are one name, so nobody passes for someone else. Each skeleton names its first owner: a
    /// log written before look-alikes compared equal may hold two, and reads back as it was.
    private var byName: [String: Int] = [:]

    init() {}

    /// A book a snapshot kept: its indexes and each account's games are rebuilt; nil if the
    /// parts contradict each other (two owners of a name or identity, a game of no account).
    init?(accounts: [Account], games: GameStore, ratedGames: Int) {
        for account in accounts { self.accounts.append(account) }
        self.games = games
        self.ratedGames = ratedGames
        for account in accounts {
            guard byIdentity.updateValue(Int32(account.id), forKey: account.storedIdentity) == nil else { return nil }
            let key = Self.key(account.name)
            if let owner = byName[key] {
                guard !Self.sameName(accounts[owner].name, account.name) else { return nil }
            } else {
                byName[key] = account.id
            }
        }
        // Counted first, so each account's list is allocated once at its size.
        var counts = [Int32](repeating: 0, count: accounts.count)
        for index in 0..<games.count {
            let game = games.stored(index)
            for seat in 0..<game.seatCount {
                guard let id = game.account(of: seat) else { continue }
                guard counts.indices.contains(id) else { return nil }
                if seat == 0 || game.account(of: 0) != id { counts[id] += 1 }
            }
        }
        for id in self.accounts.indices { self.accounts[id].games.reserveCapacity(Int(counts[id])) }
        for index in 0..<games.count {
            let game = games.stored(index)
            // An account in both seats has the game once, as `apply` gives it.
            for seat in 0..<game.seatCount {
                if let id = game.account(of: seat), seat == 0 || game.account(of: 0) != id { self.accounts[id].games.append(Int32(index)) }
            }
        }
    }

    static func key(_ name: String) -> String { PlayerName.skeleton(name) }

    /// Whether two names were one name before look-alikes compared equal (case folded): the
    /// log reader refuses a record only for that, so a log written then reads back.
    static func sameName(_ one: String, _ other: String) -> Bool { one.lowercased() == other.lowercased() }

    /// Who owns `name` in the sense the log reader checks (see `sameName`), if anyone.
    private func strictOwner(of name: String) -> Int? {
        byName[Self.key(name)].flatMap { Self.sameName(accounts[$0].name, name) ? $0 : nil }
    }

    func account(for identity: PlayerIdentity) -> Account? { byIdentity[StoredIdentity(identity)].map { accounts[Int($0)] } }

    func account(named name: String) -> Account? { byName[Self.key(name)].map { accounts[$0] } }

    func account(_ id: Int) -> Account? { accounts.indices.contains(id) ? accounts[id] : nil }

    /// Whether the log already holds the game dealt with this commitment.
    func hasGame(_ commitment: String) -> Bool { games.index(of: commitment) != nil }

    /// The game dealt with this commitment, if the log holds it.
    func game(_ commitment: String) -> GameRecord? { games.index(of: commitment).map { games[$0] } }

    var nextID: Int { accounts.count }

    /// What a snapshot keeps: shared with the book until the book next changes, and no index
    /// (a start rebuilds those), so that change copies a chunk, not a hundred thousand entries.
    var snapshotContents: AccountSnapshot.Contents {
        AccountSnapshot.Contents(accounts: accounts, games: games.games, names: games.names, texts: games.texts, ratedGames: ratedGames)
    }

    /// Why a record cannot follow the ones applied so far (nil: it can): ids in order, names
    /// owned once, games of known accounts. A log that breaks these was edited or is damaged.
    func problem(with record: AccountRecord) -> String? {
        switch record {
        case .created(let id, let identity, let name, _, _):
            if id != accounts.count { return "account \(id) follows account \(accounts.count - 1)" }
            if byIdentity[StoredIdentity(identity)] != nil { return "a second account for one identity" }
            if strictOwner(of: name) != nil { return "the name \"\(name)\" is owned already" }
        case .renamed(let id, let name):
            if account(id) == nil { return "a rename of unknown account \(id)" }
            if let owner = strictOwner(of: name), owner != id { return "the name \"\(name)\" is owned already" }
        case .game(let game):
            // By index, not `account(_:)`: copying an account (its arrays and ratings) per seat cost a twentieth of a start.
            if game.players.contains(where: { $0.account.map { !accounts.indices.contains($0) } ?? false }) { return "a game of an unknown account" }
            if Self.concernsAccounts(game) && hasGame(game.commitment) { return "game \(game.commitment) recorded twice" }
        }
        return nil
    }

    /// Applies a record that `problem(with:)` accepted.
    mutating func apply(_ record: AccountRecord) {
        switch record {
        case .created(let id, let identity, let name, let bot, let wall):
            accounts.append(Account(id: id, identity: identity, name: name, bot: bot, createdWall: wall))
            byIdentity[StoredIdentity(identity)] = Int32(id)
            if byName[Self.key(name)] == nil { byName[Self.key(name)] = id }
        case .renamed(let id, let name):
            let old = Self.key(accounts[id].name)
            if byName[old] == id { byName[old] = nil }
            accounts[id].name = name
            if byName[Self.key(name)] == nil { byName[Self.key(name)] = id }
        case .game(let game):
            // A game of guests alone stays in the log only: nobody can ask about it, and a
            // server full of guests must not fill its memory with them.
            guard Self.concernsAccounts(game) else { return }
            let index = Int32(games.count)
            // Set times count once, in each account's own list; the log keeps them per game.
            games.append(game)
            if game.rated { ratedGames += 1 }
            for (seat, player) in game.players.enumerated() {
                guard let id = player.account, accounts.indices.contains(id) else { continue }
                accounts[id].setTimes.add(player.setTimes)
                // One account in both seats (two terminals, one key) played itself: the game is
                // its once, and neither a win nor a loss.
                let seats = game.players.indices.filter { game.players[$0].account == id }
                guard seats.first == seat else { continue }
                accounts[id].games.reserveGently(1)
                accounts[id].games.append(index)
                if game.rated, let after = player.after { accounts[id].ratings[game.variant] = after }
                guard seats.count == 1 else { continue }
                switch game.score(of: seat) {
                case .win: accounts[id].wins += 1
                case .loss: accounts[id].losses += 1
                case .draw: accounts[id].draws += 1
                case nil: break
                }
            }
        }
    }

    /// Whether any seat of the game was an account's.
    static func concernsAccounts(_ game: GameRecord) -> Bool { game.players.contains { $0.account != nil } }

    /// The record a finished game makes (`GameRecord.init(of:ratings:…)` decides), from the
    /// ratings and the pair's rated games this book holds.
    func record(of finished: FinishedGame, wallSeconds: Int64, journal: String, policy: RatingPolicy = .standard) -> GameRecord {
        // A journal names accounts by id; one this book does not hold (an edited journal) is a guest.
        var ratings: [Int: Rating] = [:]
        for seated in finished.seats {
            if let id = seated.account, let account = account(id) { ratings[id] = account.rating(finished.variant) }
        }
        let pairGames = GameRecord.pair(of: finished).map { ratedGamesOfPair($0.0, $0.1, since: wallSeconds - policy.pairWindowSeconds) } ?? 0
        return GameRecord(of: finished, ratings: ratings, pairGamesInWindow: pairGames, wallSeconds: wallSeconds, journal: journal, policy: policy)
    }
}
