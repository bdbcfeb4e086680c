// swift-tools-version:6.0
import PackageDescription

// Arrows point down only: the executable wires the modules; the rules know nothing of I/O.
let package = Package(
    name: "setgame",
    products: [
        .executable(name: "setgame", targets: ["setgame"]),
    ],
    targets: [
        .target(name: "SetRules"),
        // Glicko-2, pure: no I/O, no clock.
        .target(name: "SetRatings"),
        // Arenas, pure: scoring, standings, pairing, phases; time comes in, no I/O.
        .target(name: "SetArena"),
        .systemLibrary(name: "CLinux", path: "Sources/CLinux"),
        // The operating system's database clients (Debian: libsqlite3-dev, libpq-dev), as Glibc is.
        .systemLibrary(name: "CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),
        .systemLibrary(name: "CPostgres", pkgConfig: "libpq", providers: [.apt(["libpq-dev"])]),
        // SQL over SQLite or PostgreSQL: bound values, typed rows, transactions, migrations.
        .target(name: "SetDatabase", dependencies: ["CSQLite", "CPostgres"]),
        .target(name: "SetWire", dependencies: ["SetRules"]),
        .target(name: "SetNet", dependencies: ["CLinux", "SetRules", "SetWire"]),
        .target(name: "SetServer", dependencies: ["SetRules", "SetRatings", "SetArena", "SetWire", "SetNet", "SetDatabase"]),
        .target(name: "SetClient", dependencies: ["SetRules", "SetWire"]),
        .target(name: "SetBot", dependencies: ["SetRules", "SetWire", "SetNet", "SetClient"]),
        .target(name: "SetBench", dependencies: ["CLinux", "SetRules", "SetWire", "SetNet", "SetBot", "SetClient"]),
        .target(name: "SetScreen", dependencies: ["SetRules", "SetWire", "SetClient"]),
        .target(name: "SetTerminal", dependencies: ["SetRules", "SetWire", "SetNet", "SetScreen"]),
        .target(name: "SetLocal", dependencies: ["SetRules", "SetWire", "SetNet", "SetServer", "SetBot", "SetTerminal"]),
        .target(name: "SetDoor", dependencies: ["SetRules", "SetWire", "SetNet", "SetBot", "SetScreen", "SetTerminal", "SetLocal"]),
        .target(name: "SetReplay", dependencies: ["SetRules", "SetWire", "SetServer", "SetScreen"]),
        .target(name: "SetCLI", dependencies: ["SetRules", "SetWire", "SetNet", "SetServer", "SetBot", "SetBench", "SetTerminal", "SetLocal", "SetDoor", "SetReplay"]),
        .executableTarget(name: "setgame", dependencies: ["SetRules", "SetCLI", "SetWire", "SetNet", "SetServer", "SetScreen", "SetTerminal", "SetBot", "SetBench", "SetLocal", "SetDoor", "SetReplay"]),
        // What the tests of several modules share: a real server on its own thread, the test client,
        // the scripted fake server, bots on a thread, waiting for results.
        .target(name: "SetTestSupport", dependencies: ["SetNet", "SetServer", "SetDatabase", "SetWire", "SetRules", "SetBot"], path: "Tests/SetTestSupport"),
        .testTarget(name: "SetRulesTests", dependencies: ["SetRules"]),
        .testTarget(name: "SetRatingsTests", dependencies: ["SetRatings"]),
        .testTarget(name: "SetArenaTests", dependencies: ["SetArena", "SetRules"]),
        .testTarget(name: "SetWireTests", dependencies: ["SetWire", "SetRules"]),
        .testTarget(name: "SetClientTests", dependencies: ["SetClient", "SetWire", "SetRules"]),
        .testTarget(name: "SetNetTests", dependencies: ["SetNet", "SetWire", "SetRules", "CLinux"]),
        .testTarget(name: "SetServerTests", dependencies: ["SetTestSupport", "SetServer", "SetArena", "SetDatabase", "SetWire", "SetNet", "SetRules"],
                    exclude: ["Fixtures"]),
        .testTarget(name: "SetBotTests", dependencies: ["SetTestSupport", "SetBot", "SetServer", "SetWire", "SetNet", "SetRules"]),
        .testTarget(name: "SetBenchTests", dependencies: ["SetTestSupport", "SetBench", "SetServer", "SetNet", "SetWire", "SetRules"]),
        .testTarget(name: "SetScreenTests", dependencies: ["SetScreen", "SetRules", "SetWire"]),
        .testTarget(name: "SetTerminalTests", dependencies: ["SetTestSupport", "SetTerminal", "SetScreen", "SetBot", "SetRules", "SetWire", "SetNet", "SetServer"]),
        .testTarget(name: "SetLocalTests", dependencies: ["SetLocal", "SetReplay", "SetTerminal", "SetScreen", "SetTestSupport", "SetServer", "SetBot", "SetNet", "SetWire", "SetRules"]),
        .testTarget(name: "SetDoorTests", dependencies: ["SetDoor", "SetClient", "SetBot", "SetWire", "SetRules"]),
        .testTarget(name: "SetReplayTests", dependencies: ["SetReplay", "SetServer", "SetWire", "SetRules"]),
        .testTarget(name: "SetCLITests", dependencies: ["SetTestSupport", "SetCLI", "SetDoor", "SetReplay", "SetLocal", "SetBench", "SetBot", "SetTerminal", "SetServer", "SetNet", "SetWire", "SetRules"]),
    ],
    swiftLanguageModes: [.v6]
)
