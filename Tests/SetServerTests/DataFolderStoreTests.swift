import Foundation
import SetDatabase
@testable import SetServer
import SetTestSupport
import Testing

/// Issue 45, items 13–17: the accounts store in the data folder, as an operator meets it.
@Suite struct DataFolderStoreTests {
    static func folder(_ name: String) throws -> String {
        let folder = temporaryFolder("setgame-\(name)")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        return folder
    }

    static func storePath(_ folder: String) -> String { "\(folder)/accounts/\(StoreLocation.sqliteFileName)" }

    /// Item 13: SQLite's own name for memory is memory, beside a data folder too; a store that
    /// cannot be opened is called the store, not the data folder.
    @Test func memoryMayBeNamedAsTheStoreAndTheStoreIsCalledTheStore() throws {
        #expect(StoreLocation(argument: ":memory:") == .memory && StoreLocation(argument: "memory") == .memory)
        let folder = try Self.folder("memory-store")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let server = try TestServer {
            $0.dataDirectory = folder
            $0.store = StoreLocation(argument: ":memory:")
        }
        server.stop()
        #expect(!FileManager.default.fileExists(atPath: Self.storePath(folder)))
        // A folder where the store's file should be: it cannot be opened, and the store is named.
        let blocked = folder + "/blocked"
        try FileManager.default.createDirectory(atPath: blocked, withIntermediateDirectories: true)
        var config = ServerConfig()
        config.port = 0
        config.dataDirectory = folder
        config.store = .sqliteFile(blocked)
        do {
            _ = try Server(config: config, log: .silent)
            Issue.record("a folder was opened as the store")
        } catch {
            #expect(error.description.hasPrefix("cannot open the store \(blocked): "), "\(error)")
            #expect(!error.description.contains("data folder"), "\(error)")
        }
    }

    /// Item 14: `serve --check` opens the store and checks it: a file whose header is damaged is
    /// named, a sound one passes.
    @Test func theCheckFindsAStoreWhoseHeaderIsDamaged() throws {
        let folder = try Self.folder("check-store")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        var config = ServerConfig()
        config.dataDirectory = folder
        TestServer.startAndStop { $0.dataDirectory = folder }
        #expect(Server.storeProblem(config) == nil)
        let handle = try #require(FileHandle(forWritingAtPath: Self.storePath(folder)))
        try handle.write(contentsOf: Data(repeating: 0x5A, count: 32))
        try handle.close()
        let problem = try #require(Server.storeProblem(config))
        #expect(problem.contains(Self.storePath(folder)) && problem.contains("not a database"), "\(problem)")
    }

    /// Item 15: a data folder with journals whose `accounts.sqlite3` is gone is not given an empty
    /// store in silence: the start is refused, naming the file and how to restore it, unless
    /// `--empty-store` accepts it, which the log says loudly. `--check` says the same.
    @Test func aMissingStoreBesideJournalsIsRefusedUnlessAnEmptyOneIsAsked() throws {
        let folder = try Self.folder("missing-store")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try Data("{}\n".utf8).write(to: URL(fileURLWithPath: folder + "/friday.jsonl"))
        var config = ServerConfig()
        config.port = 0
        config.dataDirectory = folder
        do {
            _ = try Server(config: config, log: .silent)
            Issue.record("an empty store replaced a missing one in silence")
        } catch {
            #expect(error.description.contains(Self.storePath(folder)) && error.description.contains("backup")
                    && error.description.contains("--empty-store"), "\(error)")
        }
        #expect(!FileManager.default.fileExists(atPath: Self.storePath(folder)))
        #expect(Server.storeProblem(config)?.contains("--empty-store") == true)
        config.accounts.allowsEmptyStore = true
        #expect(Server.storeProblem(config) == nil)
        let lines = ServerLogLines()
        _ = try SQLAccountStore.open(.standard(dataFolder: folder), dataFolder: folder, policy: .standard, wallSeconds: 1,
                                     log: lines.log, allowingEmpty: true)
        #expect(lines.all.contains { $0.contains("EMPTY") && $0.contains(Self.storePath(folder)) }, "\(lines.all)")
        // A folder without journals is a new one: its store is made without a word.
        let fresh = try Self.folder("fresh-store")
        defer { try? FileManager.default.removeItem(atPath: fresh) }
        #expect(StoreCheck.missingFile(Self.storePath(fresh), dataFolder: fresh) == nil)
    }

    /// Item 17: a clean stop folds the WAL into the file and closes it: no `-wal` or `-shm` is
    /// left, and the `.sqlite3` file alone holds what was written.
    @Test func aCleanStopLeavesTheStoreFileComplete() throws {
        let folder = try Self.folder("stop-store")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let server = try TestServer { $0.dataDirectory = folder }
        let path = Self.storePath(folder)
        #expect(FileManager.default.fileExists(atPath: path + "-wal"), "the test needs a WAL to be folded")
        server.stop()
        for leftover in ["-wal", "-shm"] {
            #expect(!FileManager.default.fileExists(atPath: path + leftover), "\(leftover) left after a clean stop")
        }
        let copy = folder + "/copy.sqlite3"
        try FileManager.default.copyItem(atPath: path, toPath: copy)
        let database = try SQLiteDatabase(path: copy, readOnly: true)
        #expect(try database.row("SELECT COUNT(*) FROM accounts")?.int(0) as Int? == 0)
    }
}

extension TestServer {
    /// Starts a server as `configure` says and stops it: its data folder is then as a stop leaves it.
    static func startAndStop(_ configure: (inout ServerConfig) -> Void) {
        do { try TestServer(configure: configure).stop() } catch { Issue.record("the server did not start: \(error)") }
    }
}
