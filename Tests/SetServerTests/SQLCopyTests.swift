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
        let fixture = try AccountFixture.lines("differential-seed1.jsonl")
        let file = StoreLocation.standard(dataFolder: folder)
        var games: [String: GameRecord] = [:]
        var accounts: [StoredAccount] = []
        do {
            let lite = try SQLAccountStore.open(file, dataFolder: folder, policy: policy, wallSeconds: 1, log: .silent)
            try AccountFixture.replay(fixture.filter { $0["step"] != nil }, into: lite, policy: policy)
            for line in fixture where line["step"] == "game" {
                let commitment = try AccountFixture.finished(line["finished"]).commitment
                games[commitment] = try lite.game(commitment: commitment)
            }
            for id in 0... {
                guard let account = try lite.account(id: id) else { break }
                accounts.append(account)
            }
        }
        let lines = ServerLogLines()
        let shared = try SQLAccountStore.open(.postgres(target.location), dataFolder: folder, policy: policy, wallSeconds: 50, log: lines.log)
        // Every question asked after the history gets the old engine's answer from the copy.
        #expect(try AccountFixture.replay(fixture.filter { $0["ask"] != nil }, into: shared, policy: policy) > 0)
        // Exact: every rating to the last digit (a CSV export would have rounded them).
        #expect(games.count > 100)
        for (commitment, game) in games { #expect(try shared.game(commitment: commitment) == game) }
        #expect(accounts.count > 10)
        for account in accounts { #expect(try shared.account(id: account.id) == account) }
        #expect(lines.all.contains { $0.contains("copied") && $0.contains("accounts.sqlite3.copied-50") }, "\(lines.all)")
        #expect(!FileManager.default.fileExists(atPath: file.description))
        // A store that holds accounts already is never written over.
        let again = ServerLogLines()
        _ = try SQLAccountStore.open(.postgres(target.location), dataFolder: folder, policy: policy, wallSeconds: 51, log: again.log)
        #expect(again.all.isEmpty)
    }
}
