import SetClient

/// What the screen reads of `ClientOptions`: the colours, the words of its boxes, and whether a
/// bot in this process is held off while the player reads.
extension ClientOptions {
    var theme: Theme { Theme(usesColor: !noColor, colorblind: colorblind) }

    /// How a friend can watch, shown in the help and before a local match starts.
    var watchHint: CommandHint? { watchCommand.map { CommandHint(lead: watchLead, command: $0) } }

    /// The match runs in this process (`setgame play`): a duel's bot holds off while help or the
    /// leave box is open.
    var isLocal: Bool { local != nil }

    /// A bot runs in this process beside the player (`setgame play`, the door's bot duel): help
    /// and the leave box hold it off, so it does not score while the player reads.
    var holdsBot: Bool { isLocal || botBeside != nil }
}

extension ClientOptions {
    /// These options with no colour where `environment` asks for none (NO_COLOR, as `Theme.from`
    /// reads it): the screen's one rule for it.
    package func withColourFrom(environment: [String: String]) -> ClientOptions {
        var options = self
        if !Theme.from(environment: environment).usesColor { options.noColor = true }
        return options
    }
}
