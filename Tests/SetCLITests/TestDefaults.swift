import SetCLI

extension CommandDefaults {
    /// Fixed surroundings, so a test's expectations do not depend on who runs it or when.
    static let test = CommandDefaults(command: "setgame", stateFolder: "/state", loginName: "login", clockSeed: 4_242)
}

extension Commands {
    /// Parses as the executable does, in the fixed surroundings of `CommandDefaults.test`.
    static func parse(_ arguments: [String]) throws(UsageError) -> Command {
        try parse(arguments, defaults: .test)
    }
}
