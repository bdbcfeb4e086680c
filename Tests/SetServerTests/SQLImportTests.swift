import Foundation
import SetRatings
import SetRules
@testable import SetServer
import SetTestSupport
import SetWire
import Testing

/// The upgrade: a data folder the accounts log's engine wrote (its log, a snapshot, records after
/// it), frozen in `Fixtures/` before that engine was deleted, is imported whole into an empty
/// store on first start, and the old files are set aside.
@Suite struct SQLImportTests {
    /// A copy of the data folder the old engine wrote and froze in `Fixtures/old-data-folder`
    /// (its log, a snapshot part way, records after it).
    static func oldDataFolder() throws -> String {
        let folder = temporaryFolder("setgame-import")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: "\(AccountFixture.folder)/old-data-folder/accounts", toPath: folder + "/accounts")
        return folder
    }

    /// The frozen folder is imported whole: every answer is the one the old engine gave reading
    /// that folder, every game exactly as the log holds it, and the old files are set aside.
    @Test(arguments: TestStoreKind.allCases)
    func theFrozenFolderOfTheOldEngineIsImportedWhole(kind: TestStoreKind) throws {
        guard let target = try TestDatabase.make(kind) else { return }
        let folder = try Self.oldDataFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let logPath = "\(folder)/accounts/\(AccountLogFile.fileName)"
        let logged = try String(contentsOfFile: logPath, encoding: .utf8).split(separator: "\n").map { line in
            try AccountLogRecord.decode(Array(line.utf8))
        }
        let lines = ServerLogLines()
        let location: StoreLocation = kind == .sqlite ? .sqliteFile(target.location) : .postgres(target.location)
        let store = try SQLAccountStore.open(location, dataFolder: folder, policy: SQLStoreDifferentialTests.policy, wallSeconds: 77, log: lines.log)
        let answers = try AccountFixture.lines("old-data-folder-answers.jsonl")
        #expect(try AccountFixture.replay(answers, into: store, policy: SQLStoreDifferentialTests.policy) > 0)
        var games = 0
        for case .game(let game) in logged where game.concernsAccounts {
            games += 1
            #expect(try store.game(commitment: game.commitment) == game)
        }
        #expect(games > 100)
        let accounts = logged.filter { if case .created = $0 { true } else { false } }.count
        #expect(!FileManager.default.fileExists(atPath: logPath))
        #expect(FileManager.default.fileExists(atPath: logPath + ".imported-77"))
        #expect(FileManager.default.fileExists(atPath: "\(folder)/accounts/\(AccountLogFile.snapshotFileName).imported-77"))
        #expect(lines.all.contains { $0.contains("imported \(accounts) accounts and \(games) games") && $0.contains("accounts.jsonl.imported-77") },
                "\(lines.all)")
    }

    /// `serve --data DIR` on a folder the current release wrote: its first start imports the
    /// accounts log into DIR/accounts/accounts.sqlite3 and says so in the log; players keep
    /// their ratings.
    @Test func aServerStartedOnAnOldFolderImportsItAndSaysSo() throws {
        let folder = try Self.oldDataFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let answers = try AccountFixture.lines("old-data-folder-answers.jsonl")
        let profile = try #require(answers.first { $0["ask"] == "profile" && $0["answer"]?.objectValue?["info"] != nil })
        let name = try #require(profile["name"]?.stringValue)
        let server = try TestServer { $0.dataDirectory = folder }
        defer { server.stop() }
        #expect(server.logLines.all.contains { $0.contains("imported") && $0.contains("accounts.jsonl.imported-") }, "\(server.logLines.all)")
        #expect(FileManager.default.fileExists(atPath: "\(folder)/accounts/\(StoreLocation.sqliteFileName)"))
        let client = try TestClient.greeted(server)
        client.send(.account(.profile(name: name)), id: "q")
        let info = try client.waitFor("profile") { if case .accountInfo(let info, _) = $0 { info } else { nil } }
        #expect(JSONWriter.bytes(.object(info.fields)) == JSONWriter.bytes(profile["answer"]?.objectValue?["info"]?.objectValue?["fields"] ?? .null))
    }
}
