import SetNet
import SetRules

// What a server would start with, asked before it starts (`setgame serve` checks its flags by
// them): its limits fitted to the descriptors the process may open, and whether a data
// directory can hold journals.
extension Server {
    /// Raises the descriptor limit as far as allowed and fits the connection and match limits to
    /// what it really allows, saying so in the log when they had to shrink.
    static func fitToDescriptors(_ config: ServerConfig, log: ServerLog) -> ServerConfig {
        guard let limit = DescriptorLimit.raise() else { return config }
        let budget = DescriptorBudget.fit(maxConnections: config.limits.maxConnections, maxMatches: config.maxMatches,
                                          journals: config.dataDirectory != nil, descriptors: limit.soft)
        guard budget.maxConnections != config.limits.maxConnections || budget.maxMatches != config.maxMatches else { return config }
        var fitted = config
        fitted.limits.maxConnections = budget.maxConnections
        fitted.maxMatches = budget.maxMatches
        log("only \(limit.soft) file descriptors may be open (hard limit \(limit.hard.map(String.init) ?? "unlimited")): "
            + "serving at most \(budget.maxConnections) connections (asked \(config.limits.maxConnections)) and "
            + "\(budget.maxMatches) matches (asked \(config.maxMatches)); raise LimitNOFILE / ulimit -n for more")
        return fitted
    }

    /// The configuration a server would run with here: its limits fitted to the descriptors.
    package static func fitted(_ config: ServerConfig, log: ServerLog = .silent) -> ServerConfig {
        fitToDescriptors(config, log: log)
    }

    /// What a host is told at start about settings it may not mean: a known seed where others can
    /// connect (its deals can be told from each game's commitment by anyone).
    package static func warnings(for config: ServerConfig) -> [String] {
        guard case .counting(let seed) = config.seeds, !["127.0.0.1", "::1", "localhost"].contains(config.host) else { return [] }
        return ["warning: --seed \(seed) deals every game from a known seed on \(config.host): anyone who sees a game's commitment "
                + "can tell its deals. It is for demos and tests; leave it out where strangers play"]
    }

    /// Why `path` cannot hold match journals, or nil if it can (it is created if missing).
    package static func dataDirectoryProblem(_ path: String) -> String? {
        let directory = JournalDirectory(path: path, log: .silent)
        do { try directory.prepareChecked() } catch { return error.reason }
        guard directory.isWritable else { return "not writable" }
        return nil
    }

}
