/// The executable's subcommands: a closed set, so parsing and dispatch are exhaustive switches and
/// a new command cannot fall through to another's handling.
package enum Subcommand: String, CaseIterable, Sendable {
    // In the order the overview lists them.
    case play, serve, join, watch, bot, door, profile, history, leaderboard, arena, nodes, replay, bench, rules, cards

    /// Its options, arguments and help.
    package var spec: CommandSpec {
        switch self {
        case .play: Commands.play
        case .serve: Commands.serve
        case .join: Commands.join
        case .watch: Commands.watch
        case .bot: Commands.bot
        case .door: Commands.door
        case .profile: Commands.profile
        case .history: Commands.history
        case .leaderboard: Commands.leaderboard
        case .arena: Commands.arena
        case .nodes: Commands.nodes
        case .replay: Commands.replay
        case .bench: Commands.bench
        case .rules: Commands.rules
        case .cards: Commands.cards
        }
    }
}
