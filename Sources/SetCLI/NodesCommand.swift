import Foundation
import SetServer

/// `setgame nodes`: an operator's view of the nodes sharing one PostgreSQL store, and the two
/// things done to one by hand: drain it before it is taken away, forget it once it is gone for
/// good. It speaks to the store, not to a node, so it works with every node stopped.
package struct NodesCommand: Equatable, Sendable {
    package enum Action: Equatable, Sendable {
        /// List every node: address, serving, drained or away, and its matches.
        case list
        /// Take no new matches (`true`), or take them again.
        case drain(String, Bool)
        /// Forget a node that is away for good, with its unfinished matches.
        case forget(String)
        /// Silence an entry of the service's silenced list (`address 203.0.113.9`), or lift it.
        case silence(String, Bool)
        /// Print the service's silenced list.
        case silenced
    }

    package var action: Action
    package var storeURL: String

    package init(action: Action, storeURL: String) {
        self.action = action
        self.storeURL = storeURL
    }
}

extension Commands {
    package static let nodes = CommandSpec(
        "nodes", "List the servers (nodes) sharing a PostgreSQL store; drain one before removing it, forget one gone for good.",
        positionals: [PositionalSpec("ACTION", "list (default), drain NAME, resume NAME, forget NAME, silence ENTRY, unsilence ENTRY or silenced"),
                      PositionalSpec("NAME", "the node drained, resumed or forgotten; or the chat entry silenced for every node ('address 203.0.113.9', 'ssh SHA256:…', 'account HEX')")],
        options: [OptionSpec("store", "URL", "the nodes' store: postgresql://USER@HOST:PORT/DB (a password from PGPASSWORD or ~/.pgpass)")])

    static func nodesCommand(_ parsed: ParsedArguments) throws(UsageError) -> NodesCommand {
        guard let url = parsed.values["store"], url.hasPrefix("postgresql://") || url.hasPrefix("postgres://") else {
            throw UsageError("nodes needs --store postgresql://…, the store the nodes share", command: nodes.name)
        }
        let words = parsed.positionals
        let action: NodesCommand.Action
        switch (words.first ?? "list", words.count) {
        case ("list", ...1): action = .list
        case ("drain", 2): action = .drain(words[1], true)
        case ("resume", 2): action = .drain(words[1], false)
        case ("forget", 2): action = .forget(words[1])
        case ("silence", 2): action = .silence(words[1], true)
        case ("unsilence", 2): action = .silence(words[1], false)
        case ("silenced", 1): action = .silenced
        case ("drain", _), ("resume", _), ("forget", _): throw UsageError("nodes \(words[0]) needs one node NAME", command: nodes.name)
        case ("silence", _), ("unsilence", _): throw UsageError("nodes \(words[0]) needs one ENTRY, quoted: 'address 203.0.113.9'", command: nodes.name)
        default: throw UsageError("nodes takes list, drain NAME, resume NAME, forget NAME, silence ENTRY, unsilence ENTRY or silenced, not '\(words.joined(separator: " "))'", command: nodes.name)
        }
        return NodesCommand(action: action, storeURL: url)
    }
}

/// Runs `setgame nodes` against the store and prints what it found or did.
package enum NodesClient {
    package static func run(_ command: NodesCommand) -> Int32 {
        do {
            let roster = try NodeRoster.open(url: command.storeURL, wallSeconds: Int64(Date().timeIntervalSince1970))
            let now = try roster.now()
            switch command.action {
            case .list:
                NodesReport.lines(try roster.nodes(at: now), now: now).forEach { print($0) }
            case .drain(let name, let draining):
                try roster.drain(name, draining, at: now)
                print(draining ? "node \(name) drains: it keeps its matches, takes no new ones, and says it is not ready within one renewal"
                               : "node \(name) takes new matches again")
            case .forget(let name):
                let matches = try roster.forget(name, at: now)
                print("forgot node \(name)" + (matches.isEmpty ? "; it held no unfinished match"
                                                                : " and its \(matches.count) unfinished match(es), gone for good: \(matches.joined(separator: ", "))"))
            case .silence(let entry, let silencing):
                let changed = try roster.silence(entry, silencing)
                print(silencing ? (changed ? "silenced \(entry) on every node within \(SilencedStore.pollMs / 1_000) s" : "\(entry) was silenced already")
                                : (changed ? "lifted the silence of \(entry) on every node within \(SilencedStore.pollMs / 1_000) s" : "\(entry) was not silenced"))
            case .silenced:
                let entries = try roster.silenced()
                (entries.isEmpty ? ["nobody is silenced"] : entries).forEach { print($0) }
            }
            return 0
        } catch {
            FileHandle.standardError.write(Data("setgame nodes: \(error.code.rawValue): \(error.message)\n".utf8))
            return 1
        }
    }
}

/// The table `setgame nodes` prints: pure, for tests.
package enum NodesReport {
    package static func lines(_ nodes: [NodeStanding], now: Int64) -> [String] {
        guard !nodes.isEmpty else { return ["no node has registered in this store"] }
        let rows = nodes.map { node in [node.name, node.address, state(node.state, now: now), String(node.matches)] }
        let header = ["NODE", "ADDRESS", "STATE", "MATCHES"]
        let widths = (0..<header.count).map { column in ([header] + rows).map { $0[column].count }.max() ?? 0 }
        return ([header] + rows).map { row in
            zip(row, widths).map { $0.padding(toLength: $1, withPad: " ", startingAt: 0) }.joined(separator: "  ")
                .trimmingCharacters(in: .whitespaces)
        }
    }

    static func state(_ state: NodeStanding.State, now: Int64) -> String {
        switch state {
        case .serving: "serving"
        case .draining(let since): "draining for \(duration(now - since))"
        case .away(let since): "away for \(duration(now - since))"
        }
    }

    /// A span of milliseconds as an operator reads it: "45 s", "12 min", "3 h", "2 d".
    static func duration(_ ms: Int64) -> String {
        let seconds = max(0, ms / 1_000)
        switch seconds {
        case ..<120: return "\(seconds) s"
        case ..<7_200: return "\(seconds / 60) min"
        case ..<172_800: return "\(seconds / 3_600) h"
        default: return "\(seconds / 86_400) d"
        }
    }
}
