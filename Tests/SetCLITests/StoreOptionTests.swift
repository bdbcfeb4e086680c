import SetCLI
import SetServer
import Testing

/// `serve --store`: where the accounts database is.
struct StoreOptionTests {
    @Test func storeTakesAPostgresAddressOrAFile() throws {
        guard case .serve(let shared) = try Commands.parse(["serve", "--store", "postgresql://setgame@127.0.0.1:5432/setgame"]) else {
            Issue.record("not serve")
            return
        }
        #expect(shared.config.store == .postgres("postgresql://setgame@127.0.0.1:5432/setgame"))
        guard case .serve(let file) = try Commands.parse(["serve", "--store", "/srv/accounts.sqlite3"]),
              case .serve(let standard) = try Commands.parse(["serve"]) else { Issue.record("not serve"); return }
        #expect(file.config.store == .sqliteFile("/srv/accounts.sqlite3") && standard.config.store == nil)
        #expect(StoreLocation.standard(dataFolder: "/d") == .sqliteFile("/d/accounts/accounts.sqlite3"))
        #expect(StoreLocation.standard(dataFolder: nil) == .memory)
        #expect(StoreLocation(argument: "memory") == .memory)
    }

    /// `--empty-store` is the operator's explicit word that a missing store beside journals may
    /// start empty; without it such a start is refused.
    @Test func emptyStoreIsAskedForByName() throws {
        guard case .serve(let asked) = try Commands.parse(["serve", "--data", "/d", "--empty-store"]),
              case .serve(let plain) = try Commands.parse(["serve", "--data", "/d", "--store", ":memory:"]) else { Issue.record("not serve"); return }
        #expect(asked.config.accounts.allowsEmptyStore && !plain.config.accounts.allowsEmptyStore)
        #expect(plain.config.store == .memory)
    }

    @Test func anotherSchemeIsAUsageError() {
        #expect(throws: UsageError("--store takes postgresql://USER@HOST:PORT/DB or a SQLite file's path, not 'mysql://x/y'", command: "serve")) {
            try Commands.parse(["serve", "--store", "mysql://x/y"])
        }
    }
}
