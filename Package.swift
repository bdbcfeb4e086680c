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
        .target(name: "SetWire", dependencies: ["SetRules"]),
        .target(name: "SetTerminal", dependencies: ["SetRules"]),
        .target(name: "SetCLI", dependencies: ["SetRules"]),
        .executableTarget(name: "setgame", dependencies: ["SetRules", "SetCLI"]),
        .testTarget(name: "SetRulesTests", dependencies: ["SetRules"]),
        .testTarget(name: "SetWireTests", dependencies: ["SetWire", "SetRules"]),
        .testTarget(name: "SetTerminalTests", dependencies: ["SetTerminal", "SetRules"]),
        .testTarget(name: "SetCLITests", dependencies: ["SetCLI", "SetRules"]),
    ],
    swiftLanguageModes: [.v6]
)
