import Foundation
import SetDatabase
import SetRules
@testable import SetServer
import SetTestSupport
import Testing

/// Moving from SQLite to PostgreSQL: a server started with `--store postgresql://…` on a data
/// folder whose accounts are in its SQLite file copies them whole into the empty database and
/// sets the file aside.
@Suite struct SQLCopyTests {
    @Test func aSQLiteFileIsCopiedWholeIntoAnEmptyPostgres() throws {
        guard let target = try TestDatabase.make(.postgres) else { return }
        let folder = NSTemporaryDirectory() + "setgame-copy-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let policy = SQLStoreDifferentialTests.policy
        let old = try Accounts(directory: nil, faults: nil, log: .silent, policy: policy)
        let file = StoreLocation.standard(dataFolder: folder)
        var games: [String: GameRecord] = [:]
        do {
            let lite = try SQLAccountStore.open(file, dataFolder: folder, policy: policy, wallSeconds: 1, log: .silent)
            var history = RandomHistory(old: old, store: lite, policy: policy, seed: 21)
            try history.play(steps: 600)
            for commitment in history.commitments { games[commitment] = try lite.game(commitment: commitment) }
        }
        let lines = ServerLogLines()
        let shared = try SQLAccountStore.open(.postgres(target.location), dataFolder: folder, policy: policy, wallSeconds: 50, log: lines.log)
        var random = SplitMix64(seed: 3)
        try SQLStoreDifferentialTests.compareEveryAnswer(old, shared, names: old.book.accounts.map(\.name), random: &random)
        // Exact: every rating to the last digit (a CSV export would have rounded them).
        #expect(games.count > 100)
        for (commitment, game) in games { #expect(try shared.game(commitment: commitment) == game) }
        for account in old.book.accounts { #expect(try shared.account(id: account.id)?.ratings == account.ratings) }
        #expect(lines.all.contains { $0.contains("copied") && $0.contains("accounts.sqlite3.copied-50") }, "\(lines.all)")
        #expect(!FileManager.default.fileExists(atPath: file.description))
        // A store that holds accounts already is never written over.
        let again = ServerLogLines()
        _ = try SQLAccountStore.open(.postgres(target.location), dataFolder: folder, policy: policy, wallSeconds: 51, log: again.log)
        #expect(again.all.isEmpty)
    }
}
