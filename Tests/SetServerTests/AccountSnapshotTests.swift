import Foundation
import SetRatings
import SetRules
@testable import SetServer
import Testing

/// The accounts snapshot on real files: written once enough of the log was parsed, read back
/// equal to the book the whole log gives, continued by the log's later records, and ignored
/// (the whole log read instead) when it is damaged or no longer fits the log.
@Suite struct AccountSnapshotTests {
    let hex = String(repeating: "0123456789abcdef", count: 4)

    func folder() throws -> JournalDirectory {
        let path = NSTemporaryDirectory() + "setgame-account-snapshot-\(UUID().uuidString)"
        let directory = JournalDirectory(path: path, log: .silent)
        try directory.prepareChecked()
        return directory
    }

    func paths(_ directory: JournalDirectory) -> (log: String, snapshot: String) {
        ("\(directory.accountsPath)/\(AccountLog.fileName)", "\(directory.accountsPath)/\(AccountSnapshot.fileName)")
    }

    func game(_ number: Int, _ a: Int?, _ b: Int?, commitment: String, rated: Bool = true) -> GameRecord {
        // Ratings a Float holds exactly: the store keeps past games' ratings to Float precision.
        let rating = { (value: Double) in Rating(rating: value, deviation: 64.5, volatility: 0.0625) }
        let ratings = rated && a != nil && b != nil
        return GameRecord(match: "duel-\(number)", game: 1, commitment: commitment, mode: .duel, variant: number % 2 == 0 ? .classic : .junior,
                          rated: ratings, outcome: .win, reason: .noSetsLeft, winner: .second,
                          players: [.init(account: a, name: a == nil ? "guest" : "p\(a!)", points: 3, sets: 3, setTimes: [1_204, 7_000, 655_360 * 10],
                                          before: ratings ? rating(1500) : nil, after: ratings ? rating(1492.25) : nil),
                                    .init(account: b, name: b == nil ? "guest" : "p\(b!)", points: 6, sets: 6, setTimes: [3_333],
                                          before: ratings ? rating(1500) : nil, after: ratings ? rating(1507.75) : nil)],
                          endedAt: Int64(number) * 1_000, durationMs: 90_000, wallSeconds: 1_795_632_343,
                          journal: number == 3 ? "finished/duel-3.jsonl" : "duel-\(number).jsonl")
    }

    /// A log of three accounts (one renamed), rated, guest and oddly named games.
    func filled(_ directory: JournalDirectory, snapshotAfter: Int = 10_000) throws -> Accounts {
        let accounts = try Accounts(directory: directory, faults: nil, log: .silent, snapshotAfter: snapshotAfter)
        _ = accounts.seat("ann", identity: .accountKey(digest: "a"), bot: false)
        _ = accounts.seat("bob", identity: .sshKey(fingerprint: "SHA256:b"), bot: true)
        _ = accounts.seat("cy", identity: .accountKey(digest: "c"), bot: false)
        _ = accounts.seat("cyd", identity: .accountKey(digest: "c"), bot: false)
        #expect(accounts.record(game(1, 0, 1, commitment: hex)))
        #expect(accounts.record(game(2, 1, 2, commitment: "not-hex-\(2)")))
        #expect(accounts.record(game(3, 2, nil, commitment: "c3", rated: false)))
        #expect(accounts.record(game(4, 0, 2, commitment: String(hex.reversed()))))
        return accounts
    }

    func expectSame(_ read: AccountBook, _ truth: AccountBook) {
        #expect(read.accounts == truth.accounts)
        #expect(read.games == truth.games && read.ratedGames == truth.ratedGames)
        for account in truth.accounts {
            #expect(read.account(named: account.name.uppercased())?.id == account.id)
            #expect(read.account(for: account.identity)?.id == account.id)
        }
        for index in 0..<truth.games.count { #expect(read.game(truth.games[index].commitment) == truth.games[index]) }
    }

    @Test func theStoreGivesBackWhatItKept() {
        var store = GameStore()
        var odd = game(4, 0, nil, commitment: "odd-name")
        odd.match = "duel-007"
        var provisional = game(5, 1, 0, commitment: "still-provisional")
        provisional.players[1].after?.deviation = 180.5
        let kept = [game(1, 0, 1, commitment: hex), game(2, 1, nil, commitment: "odd"), game(3, nil, 0, commitment: String(hex.reversed())),
                    odd, provisional]
        for record in kept { store.append(record) }
        for (index, record) in kept.enumerated() {
            var expected = record
            expected.endedAt = 0
            for seat in expected.players.indices {
                expected.players[seat].setTimes = []
                // What is shown is kept: both ratings rounded, and whether the one after is provisional.
                expected.players[seat].before = record.players[seat].before.map {
                    Rating(rating: Double($0.rounded), deviation: Rating.provisionalDeviation, volatility: Rating.initial.volatility)
                }
                expected.players[seat].after = record.players[seat].after.map {
                    Rating(rating: Double($0.rounded), deviation: $0.isProvisional ? Rating.initial.deviation : Rating.provisionalDeviation,
                           volatility: Rating.initial.volatility)
                }
            }
            #expect(store[index] == expected)
            #expect(store[index].players.map { $0.after?.shown } == record.players.map { $0.after?.shown })
            #expect(store.index(of: record.commitment) == index)
        }
        #expect(store[0].players.map { $0.after?.rounded } == [1492, 1508], "1492.25 and 1507.75 as history shows them")
        #expect(store[4].players.map { $0.after?.isProvisional } == [false, true])
        #expect(store.index(of: String(repeating: "f", count: 64)) == nil && store.index(of: "Odd") == nil)
        #expect(MemoryLayout<GameStore.Game>.stride == 96, "a million games in 96 MB")
    }

    /// The book keeps an account key's digest as 32 bytes and gives back the very identity it was given.
    @Test func identitiesAreKeptCompactAndGivenBackAsTheyCame() {
        let identities: [PlayerIdentity] = [.accountKey(digest: hex), .accountKey(digest: hex.uppercased()), .accountKey(digest: "a"),
                                            .sshKey(fingerprint: "SHA256:\(hex)"), .guest]
        for identity in identities { #expect(StoredIdentity(identity).identity == identity) }
        #expect(StoredIdentity(.accountKey(digest: hex)) == .accountKey(Digest(hex: hex)!))
        #expect(Set(identities.map(StoredIdentity.init)).count == identities.count)
        var book = AccountBook()
        book.apply(.created(id: 0, identity: .accountKey(digest: hex), name: "ann", bot: false, wallSeconds: 0))
        #expect(book.account(for: .accountKey(digest: hex))?.name == "ann" && book.account(for: .accountKey(digest: "a")) == nil)
        #expect(book.problem(with: .created(id: 1, identity: .accountKey(digest: hex), name: "bob", bot: false, wallSeconds: 0)) != nil)
    }

    /// An account's ratings are one short list in variant order, however they were set.
    @Test func ratingsKeepVariantOrderWhateverTheOrderTheyCameIn() {
        let rating = { (value: Double) in Rating(rating: value, deviation: 80, volatility: 0.06) }
        var forwards = VariantRatings(), backwards = VariantRatings()
        for (index, variant) in Variant.allCases.enumerated() { forwards[variant] = rating(Double(1400 + index)) }
        for (index, variant) in Variant.allCases.enumerated().reversed() { backwards[variant] = rating(Double(1400 + index)) }
        #expect(forwards == backwards && forwards.all.map(\.variant) == Variant.allCases)
        backwards[.junior] = rating(1999)
        #expect(backwards[.junior]?.rating == 1999 && backwards != forwards)
        backwards[.junior] = nil
        #expect(backwards[.junior] == nil && backwards.all.count == Variant.allCases.count - 1)
    }

    @Test func aSnapshotIsWrittenAndReadBackEqualToTheLog() throws {
        let directory = try folder()
        _ = try filled(directory)
        let (log, snapshot) = paths(directory)
        #expect(!FileManager.default.fileExists(atPath: snapshot), "fewer records than snapshotAfter: no snapshot")
        let lines = ServerLogLines()
        let started = try Accounts(directory: directory, faults: nil, log: lines.log, snapshotAfter: 1)
        #expect(FileManager.default.fileExists(atPath: snapshot))
        let truth = AccountLog.read(log).book
        let read = try #require(AccountSnapshot.read(snapshot, logPath: log))
        #expect(read.offset == (try FileManager.default.attributesOfItem(atPath: log)[.size] as? Int))
        expectSame(read.book, truth)
        expectSame(started.book, truth)
        #expect(read.book.accounts[2].name == "cyd" && read.book.accounts[0].setTimes.median == 7_000)
        #expect(read.book.accounts[0].setTimes.best == 1_204 && read.book.accounts[0].setTimes.count == 6)
    }

    /// An account that sat in both seats has the game once, read from the log or the snapshot.
    @Test func aGameAgainstOneselfIsTheAccountsOnceInTheSnapshotToo() throws {
        let directory = try folder()
        let accounts = try filled(directory)
        #expect(accounts.record(game(6, 1, 1, commitment: "self-play", rated: false)))
        let bob = try #require(accounts.book.account(named: "bob"))
        #expect(bob.games.filter { $0 == 4 }.count == 1 && (bob.wins, bob.losses) == (1, 1), "the self-played game counts for nothing")
        let (log, snapshot) = paths(directory)
        #expect(AccountSnapshot.write(accounts.book, offset: 0, logPath: "/nonexistent", to: snapshot))
        let read = try #require(AccountSnapshot.read(snapshot, logPath: "/nonexistent"))
        expectSame(read.book, AccountLog.read(log).book)
        expectSame(read.book, accounts.book)
    }

    /// Records after the snapshot are read from the log; they are all that is parsed.
    @Test func theLogContinuesTheSnapshot() throws {
        let directory = try folder()
        _ = try filled(directory, snapshotAfter: 1)
        _ = try Accounts(directory: directory, faults: nil, log: .silent, snapshotAfter: 1)
        let later = try Accounts(directory: directory, faults: nil, log: .silent, snapshotAfter: 1_000)
        _ = later.seat("dee", identity: .accountKey(digest: "d"), bot: false)
        #expect(later.record(game(5, 3, 0, commitment: "c5")))
        let lines = ServerLogLines()
        let again = try Accounts(directory: directory, faults: nil, log: lines.log, snapshotAfter: 1_000)
        #expect(lines.all.contains { $0.contains("from the snapshot and 2 records after it") }, "\(lines.all)")
        expectSame(again.book, AccountLog.read(paths(directory).log).book)
        #expect(again.book.account(named: "dee")?.games == [4] && again.book.hasGame("c5"))
    }

    /// More games than a chunk holds: the store answers across the seam, and the snapshot
    /// writes the chunks as one section and reads them back into equal chunks.
    @Test func aStoreOfManyChunksIsKeptAndReadBackWhole() throws {
        let total = 11
        var record = game(0, 0, nil, commitment: "", rated: false)
        var store = GameStore(chunkSize: 4)
        for number in 0..<total {
            (record.match, record.commitment) = ("duel-\(number)", "c\(number)")
            store.append(record)
        }
        #expect(store.count == total && store.chunks.map(\.count) == [4, 4, 3])
        for number in 0..<total { #expect(store[number].match == "duel-\(number)" && store.index(of: "c\(number)") == number) }
        let owner = AccountBook.Account(id: 0, identity: .accountKey(digest: "a"), name: "p0", bot: false, createdWall: 0)
        let book = try #require(AccountBook(accounts: [owner], games: store, ratedGames: 0))
        let directory = try folder()
        let (log, snapshot) = paths(directory)
        #expect(AccountSnapshot.write(book, offset: 0, logPath: log, to: snapshot))
        for chunkSize in [4, 3, 11, GameStore.defaultChunkSize] {
            let read = try #require(AccountSnapshot.read(snapshot, logPath: log, chunkSize: chunkSize))
            #expect(read.book.games == book.games && read.book.accounts == book.accounts)
            #expect(read.book.games.chunks.map(\.count) == Array(repeating: chunkSize, count: total / chunkSize) + (total % chunkSize == 0 ? [] : [total % chunkSize]))
            #expect(read.book.accounts[0].games.count == total && read.book.games.index(of: "c10") == 10)
        }
    }

    /// The checksum taken in parts is the checksum of the whole.
    @Test func aChecksumInPartsIsTheChecksumOfTheWhole() {
        var random = SplitMix64(seed: 25)
        for length in [0, 1, 7, 8, 9, 64, 1_000, 4_099] {
            let bytes = (0..<length).map { _ in UInt8(truncatingIfNeeded: random.next()) }
            let whole = bytes.withUnsafeBytes { AccountSnapshot.checksum($0) }
            for cut in stride(from: 0, through: length, by: 8) {
                var sum = Checksum(length: length)
                bytes.withUnsafeBytes { all in
                    sum.add(UnsafeRawBufferPointer(rebasing: all[0..<cut]))
                    sum.add(UnsafeRawBufferPointer(rebasing: all[cut...]))
                }
                #expect(sum.value == whole, "length \(length), cut at \(cut)")
            }
        }
    }

    /// A running server writes a snapshot in the background every `snapshotEvery` records, of
    /// the book as it was then, while records go on being added: a start after a crash (no
    /// clean stop) reads it and parses only the records after it.
    @Test func aRunningServerSnapshotsInTheBackgroundAndACrashedStartParsesOnlyWhatCameAfter() throws {
        let directory = try folder()
        let (log, snapshot) = paths(directory)
        let accounts = try Accounts(directory: directory, faults: nil, log: .silent, snapshotAfter: 5, snapshotEvery: 6)
        for (index, name) in ["ann", "bob", "cy", "dee"].enumerated() {
            _ = accounts.seat(name, identity: .accountKey(digest: "\(index)"), bot: false)
        }
        #expect(accounts.record(game(1, 0, 1, commitment: hex)))
        #expect(accounts.unsnapshotted == 5)
        #expect(accounts.record(game(2, 1, 2, commitment: "c2")))
        // The sixth record started a snapshot; these come while it may still be written.
        #expect(accounts.unsnapshotted == 0)
        #expect(accounts.record(game(3, 2, 3, commitment: "c3")))
        #expect(accounts.record(game(4, 3, 0, commitment: "c4")))
        accounts.finishSnapshots()
        let taken = try #require(AccountSnapshot.read(snapshot, logPath: log))
        #expect(taken.book.games.count == 2 && taken.book.accounts.count == 4, "the book as it was at the sixth record")
        // No clean stop: the next start reads the snapshot and the two records after it.
        let lines = ServerLogLines()
        let restarted = try Accounts(directory: directory, faults: nil, log: lines.log, snapshotAfter: 5, snapshotEvery: 6)
        #expect(lines.all.contains { $0.contains("from the snapshot and 2 records after it") }, "\(lines.all)")
        expectSame(restarted.book, AccountLog.read(log).book)
        expectSame(restarted.book, accounts.book)
    }

    /// A clean stop writes a snapshot once enough records were appended since the last one.
    @Test func aStopCheckpointsWhatWasAppended() throws {
        let directory = try folder()
        let (log, snapshot) = paths(directory)
        let accounts = try filled(directory, snapshotAfter: 9)
        #expect(accounts.unsnapshotted == 8)
        accounts.checkpoint()
        #expect(!FileManager.default.fileExists(atPath: snapshot), "8 records: not yet worth it")
        #expect(accounts.record(game(5, 0, 1, commitment: "c5")))
        accounts.checkpoint()
        let read = try #require(AccountSnapshot.read(snapshot, logPath: log))
        expectSame(read.book, AccountLog.read(log).book)
        #expect(accounts.unsnapshotted == 0 && read.book.games.count == 5)
    }

    @Test func aDamagedSnapshotIsIgnored() throws {
        let directory = try folder()
        _ = try filled(directory, snapshotAfter: 1)
        _ = try Accounts(directory: directory, faults: nil, log: .silent, snapshotAfter: 1)
        let (log, snapshot) = paths(directory)
        var bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: snapshot)))
        #expect(AccountSnapshot.read(snapshot, logPath: log) != nil)
        for place in [bytes.count / 2, bytes.count - 1, 3] {
            let original = bytes[place]
            bytes[place] ^= 0x40
            try Data(bytes).write(to: URL(fileURLWithPath: snapshot))
            #expect(AccountSnapshot.read(snapshot, logPath: log) == nil, "byte \(place) changed")
            let lines = ServerLogLines()
            let accounts = try Accounts(directory: directory, faults: nil, log: lines.log, snapshotAfter: 1_000)
            #expect(!lines.all.contains { $0.contains("from the snapshot") })
            expectSame(accounts.book, AccountLog.read(log).book)
            bytes[place] = original
        }
        try Data(bytes.prefix(bytes.count - 9)).write(to: URL(fileURLWithPath: snapshot))
        #expect(AccountSnapshot.read(snapshot, logPath: log) == nil, "cut short")
    }

    /// A snapshot of another log (replaced, or cut back before the snapshot's offset) is stale.
    @Test func aSnapshotThatNoLongerFitsTheLogIsIgnored() throws {
        let directory = try folder()
        _ = try filled(directory, snapshotAfter: 1)
        _ = try Accounts(directory: directory, faults: nil, log: .silent, snapshotAfter: 1)
        let (log, snapshot) = paths(directory)
        let original = try Data(contentsOf: URL(fileURLWithPath: log))
        try original.dropLast(original.count - original.firstIndex(of: 0x0A)! - 1).write(to: URL(fileURLWithPath: log))
        #expect(AccountSnapshot.read(snapshot, logPath: log) == nil, "cut back")
        let accounts = try Accounts(directory: directory, faults: nil, log: .silent, snapshotAfter: 1_000)
        #expect(accounts.book.accounts.map(\.name) == ["ann"] && accounts.book.games.isEmpty)
        var edited = [UInt8](original)
        let place = try #require(edited.lastIndex(of: UInt8(ascii: "p")))
        edited[place] = UInt8(ascii: "q")
        try Data(edited).write(to: URL(fileURLWithPath: log))
        #expect(AccountSnapshot.read(snapshot, logPath: log) == nil, "same length, other bytes")
    }
}
