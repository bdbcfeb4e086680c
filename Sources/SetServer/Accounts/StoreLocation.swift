import SetDatabase

/// Where the accounts database lives: a SQLite file (by default `<data folder>/accounts/
/// accounts.sqlite3`), memory (no data folder: nothing outlives the process), or a PostgreSQL
/// server that several servers share (`--store postgresql://USER@HOST:PORT/DB`).
package enum StoreLocation: Sendable, Equatable, CustomStringConvertible {
    case memory
    case sqliteFile(String)
    case postgres(String)

    /// The file name in the data folder's `accounts/`.
    package static let sqliteFileName = "accounts.sqlite3"

    /// A `--store` value: a `postgresql://` (or `postgres://`) address, `memory` (or SQLite's own
    /// name for it, `:memory:`), or a SQLite
    /// file's path; nil for an empty value or an address of another scheme.
    package init?(argument: String) {
        if argument.hasPrefix("postgresql://") || argument.hasPrefix("postgres://") {
            guard argument.count > "postgresql://".count else { return nil }
            self = .postgres(argument)
        } else if argument == "memory" || argument == ":memory:" {
            self = .memory
        } else if argument.isEmpty || argument.contains("://") {
            return nil
        } else {
            self = .sqliteFile(argument)
        }
    }

    /// Where the store is when `--store` is not given: a file in the data folder, or memory.
    package static func standard(dataFolder: String?) -> StoreLocation {
        dataFolder.map { .sqliteFile("\($0)/accounts/\(sqliteFileName)") } ?? .memory
    }

    package var description: String {
        switch self {
        case .memory: "memory"
        case .sqliteFile(let path): path
        case .postgres(let url): url
        }
    }

    /// How messages name the store: a PostgreSQL address without its password.
    package var shown: String {
        switch self {
        case .postgres(let url): PostgresDatabase.redacted(url)
        case .memory, .sqliteFile: description
        }
    }
}
