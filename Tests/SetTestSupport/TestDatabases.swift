import Foundation
import Glibc
import SetDatabase

/// The databases the accounts tests run against: a real SQLite file in a temporary folder, and a
/// real PostgreSQL: the one `SETGAME_TEST_POSTGRES` names (CI), else a throwaway server this
/// process starts once when PostgreSQL is installed, else none (a note, and the PostgreSQL cases
/// pass over) unless `SETGAME_REQUIRE_POSTGRES=1` says a missing one is a failure.
package enum TestStoreKind: String, CaseIterable, Sendable, CustomStringConvertible {
    case sqlite, postgres

    package var description: String { rawValue }
}

/// Why a test database could not be had.
package struct TestDatabaseError: Error, CustomStringConvertible {
    package var description: String
}

/// One test's own database, removed when it is let go (a PostgreSQL database is dropped, a
/// SQLite file's folder deleted).
package final class TestDatabase {
    package let kind: TestStoreKind
    package let database: Database
    /// The SQLite file, or the PostgreSQL address (a second connection to the same database).
    package let location: String
    private let cleanup: () -> Void

    init(kind: TestStoreKind, database: Database, location: String, cleanup: @escaping () -> Void) {
        (self.kind, self.database, self.location, self.cleanup) = (kind, database, location, cleanup)
    }

    deinit { cleanup() }

    /// A fresh database of `kind`; nil (after a note) when PostgreSQL is not to be had and not required.
    package static func make(_ kind: TestStoreKind) throws -> TestDatabase? {
        switch kind {
        case .sqlite:
            let folder = NSTemporaryDirectory() + "setgame-sql-\(UUID().uuidString)"
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            let path = folder + "/accounts.sqlite3"
            return TestDatabase(kind: kind, database: try SQLiteDatabase(path: path), location: path) {
                try? FileManager.default.removeItem(atPath: folder)
            }
        case .postgres:
            guard let server = try TestPostgres.server() else { return nil }
            let name = "setgame_test_\(UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: ""))"
            let admin = try PostgresDatabase(url: server)
            try admin.execute("CREATE DATABASE \(name)")
            let url = TestPostgres.url(server, database: name)
            return TestDatabase(kind: kind, database: try PostgresDatabase(url: url), location: url) {
                try? admin.execute("DROP DATABASE IF EXISTS \(name) WITH (FORCE)")
            }
        }
    }
}

/// The PostgreSQL server the tests share, and throwaway servers of their own.
package enum TestPostgres {
    /// The address of the shared server's `postgres` database; nil (after a note) when none.
    package static func server() throws -> String? {
        switch shared {
        case .success(let url?): return url
        case .success(nil):
            if ProcessInfo.processInfo.environment["SETGAME_REQUIRE_POSTGRES"] == "1" {
                throw TestDatabaseError(description: "SETGAME_REQUIRE_POSTGRES=1, but there is no PostgreSQL: set SETGAME_TEST_POSTGRES or install postgresql")
            }
            return nil
        case .failure(let error): throw error
        }
    }

    private static let shared: Result<String?, TestDatabaseError> = {
        if let url = ProcessInfo.processInfo.environment["SETGAME_TEST_POSTGRES"], !url.isEmpty { return .success(url) }
        guard ThrowawayPostgres.binaries != nil else {
            print("note: no PostgreSQL here (no SETGAME_TEST_POSTGRES, no /usr/lib/postgresql/*/bin/initdb): the PostgreSQL cases are passed over")
            return .success(nil)
        }
        do {
            let server = try ThrowawayPostgres.start()
            sharedServer = server
            atexit { sharedServer?.stop() }
            return .success(server.url)
        } catch {
            return .failure(TestDatabaseError(description: "\(error)"))
        }
    }()

    nonisolated(unsafe) private static var sharedServer: ThrowawayPostgres?

    /// `url` with its database part replaced by `database`.
    package static func url(_ url: String, database: String) -> String {
        guard let slash = url.lastIndex(of: "/"), url[..<slash].hasSuffix(":/") == false else { return url + "/" + database }
        return String(url[..<slash]) + "/" + database
    }
}

/// A PostgreSQL server in a temporary folder on a free loopback port, for as long as a test needs
/// it: `initdb` and `pg_ctl` as the `postgres` user when run as root (PostgreSQL refuses root).
package final class ThrowawayPostgres: Sendable {
    package let folder: String
    package let port: Int
    package var url: String { "postgresql://setgame@127.0.0.1:\(port)/postgres" }

    private init(folder: String, port: Int) {
        (self.folder, self.port) = (folder, port)
    }

    /// The folder of `initdb` and `pg_ctl`, the newest installed.
    package static var binaries: String? {
        let root = "/usr/lib/postgresql"
        let versions = (try? FileManager.default.contentsOfDirectory(atPath: root)) ?? []
        return versions.sorted { (Int($0) ?? 0) < (Int($1) ?? 0) }.reversed().map { "\(root)/\($0)/bin" }
            .first { FileManager.default.isExecutableFile(atPath: "\($0)/initdb") }
    }

    /// Where every throwaway server lives, each in a folder of its own.
    private static let folderPrefix = "setgame-pg-"
    /// The file in a server's folder that names the process it was started for.
    private static let ownerFile = "owner.pid"

    /// Starts a new server; it is stopped by `stop` (at the latest when the process exits). A
    /// test process that was killed cannot stop its own: the next start stops it (`stopOrphans`).
    package static func start() throws -> ThrowawayPostgres {
        guard let bin = binaries else { throw TestDatabaseError(description: "PostgreSQL is not installed") }
        stopOrphans()
        let folder = NSTemporaryDirectory() + folderPrefix + UUID().uuidString
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try String(getpid()).write(toFile: "\(folder)/\(ownerFile)", atomically: true, encoding: .utf8)
        if geteuid() == 0 { try FileManager.default.setAttributes([.ownerAccountName: "postgres"], ofItemAtPath: folder) }
        let port = try freePort()
        let server = ThrowawayPostgres(folder: folder, port: port)
        try server.run(bin + "/initdb", ["-D", folder + "/data", "-A", "trust", "-U", "setgame", "--no-sync"])
        try server.pgctl(["start", "-w", "-o", "-k \(folder) -p \(port) -c listen_addresses=127.0.0.1 -c fsync=off", "-l", folder + "/log"])
        return server
    }

    /// Stops and removes the throwaway servers whose process is gone; returns their folders.
    @discardableResult
    package static func stopOrphans() -> [String] {
        let temporary = NSTemporaryDirectory()
        let names = (try? FileManager.default.contentsOfDirectory(atPath: temporary)) ?? []
        var stopped: [String] = []
        for name in names where name.hasPrefix(folderPrefix) {
            let folder = temporary + name
            guard let text = try? String(contentsOfFile: "\(folder)/\(ownerFile)", encoding: .utf8),
                  let owner = pid_t(text.trimmingCharacters(in: .whitespacesAndNewlines)),
                  kill(owner, 0) != 0 && errno == ESRCH else { continue }
            ThrowawayPostgres(folder: folder, port: 0).stop()
            stopped.append(folder)
        }
        return stopped
    }

    /// The process this server was started for, as its folder says (tests of `stopOrphans`).
    package func claim(for owner: pid_t) throws {
        try String(owner).write(toFile: "\(folder)/\(Self.ownerFile)", atomically: true, encoding: .utf8)
    }

    /// `pg_ctl restart`: every connection is cut, the port stays.
    package func restart() throws {
        try pgctl(["restart", "-w", "-m", "fast", "-o", "-k \(folder) -p \(port) -c listen_addresses=127.0.0.1 -c fsync=off", "-l", folder + "/log"])
    }

    /// `pg_ctl stop -m fast`: every connection is cut and none is taken until `resume`, which
    /// starts it again on the same port and folder.
    package func halt() throws { try pgctl(["stop", "-w", "-m", "fast"]) }

    /// Starts a server `halt` stopped.
    package func resume() throws {
        try pgctl(["start", "-w", "-o", "-k \(folder) -p \(port) -c listen_addresses=127.0.0.1 -c fsync=off", "-l", folder + "/log"])
    }

    /// Stops the server's processes with SIGSTOP, as a hung host would be: connections stay
    /// open, the kernel still takes their bytes, and nothing answers.
    package func freeze() { signalAll(SIGSTOP) }

    /// Lets the processes `freeze` stopped go on.
    package func thaw() { signalAll(SIGCONT) }

    /// The postmaster (from its pid file) and every process it started.
    private func signalAll(_ signal: Int32) {
        guard let text = try? String(contentsOfFile: "\(folder)/data/postmaster.pid", encoding: .utf8),
              let postmaster = text.split(separator: "\n").first.flatMap({ pid_t($0) }) else { return }
        let children = ((try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []).compactMap { entry -> pid_t? in
            guard let pid = pid_t(entry), let stat = try? String(contentsOfFile: "/proc/\(entry)/stat", encoding: .utf8),
                  let close = stat.lastIndex(of: ")") else { return nil }
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            return fields.count > 1 && pid_t(fields[1]) == postmaster ? pid : nil
        }
        for pid in [postmaster] + children { kill(pid, signal) }
    }

    package func stop() {
        thaw()
        try? pgctl(["stop", "-m", "immediate"])
        try? FileManager.default.removeItem(atPath: folder)
    }

    private func pgctl(_ arguments: [String]) throws {
        guard let bin = Self.binaries else { throw TestDatabaseError(description: "PostgreSQL is not installed") }
        try run(bin + "/pg_ctl", ["-D", folder + "/data"] + arguments)
    }

    /// Runs a program to its end, its output kept in a file for the error. posix_spawn and
    /// waitpid, not Foundation's Process: its exit watch never fired inside the test process.
    private func run(_ program: String, _ arguments: [String]) throws {
        let argv = (geteuid() == 0 ? ["/usr/sbin/runuser", "-u", "postgres", "--", program] : [program]) + arguments
        let output = folder + "-\(UUID().uuidString).out"
        defer { unlink(output) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, output, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        let cArguments = argv.map { strdup($0) } + [nil]
        defer { for argument in cArguments { free(argument) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, argv[0], &actions, nil, cArguments, environ)
        guard spawned == 0 else { throw TestDatabaseError(description: "cannot run \(argv[0]): \(String(cString: strerror(spawned)))") }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        guard status == 0 else {
            let said = (try? String(contentsOfFile: output, encoding: .utf8)) ?? ""
            throw TestDatabaseError(description: "\(argv.joined(separator: " ")) failed (status \(status)): \(said)")
        }
    }

    /// A loopback port nobody listens on now.
    private static func freePort() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw TestDatabaseError(description: "socket failed") }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0 }
        }
        guard bound else { throw TestDatabaseError(description: "bind failed") }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}
