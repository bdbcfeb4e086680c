import Foundation
import SetServer
import SetTerminal

/// The server side of a `setgame play` game: a server on a loopback port, journaling to the kept
/// game's folder, whose match seats only the player and the bot, each under a token this process
/// made (or kept from the last run). Any other local process may watch, but not take a seat.
package struct LocalTable: Sendable {
    /// Where the server listens.
    package let port: UInt16
    /// Stops or wakes the server from any thread.
    package let control: ServerControl
    /// Signalled once the server has shut down.
    private let stopped: DispatchSemaphore
    /// The token the player's client joins with; it is in the seat token store under the kept key.
    package let playerToken: String
    /// The token the bot joins with.
    package let botToken: String
    /// Whether the server took up the kept game's unfinished match.
    package let resumed: Bool

    /// Why a table could not be opened.
    package enum Failure: Error, Sendable {
        case start(ServerStartError)
        /// A kept journal the server restored, but no token of the player's to take its seat.
        case tokenLost
    }

    /// Starts the server on the last run's port when it is free, any free one otherwise, with the
    /// kept game's match reserved for the player's and the bot's tokens, running on a thread of its
    /// own until `stop()`.
    package static func open(_ kept: KeptGame, store: SeatTokenStore, config: ServerConfig,
                            log: ServerLog) throws(Failure) -> LocalTable {
        let keptToken = store.token(for: kept.tokenKey)
        let keptBot = kept.isUnfinished ? kept.bot() : nil
        let playerToken = kept.isUnfinished ? keptToken ?? SeatToken.make() : SeatToken.make()
        let botToken = keptBot?.token ?? SeatToken.make()
        var config = config
        config.dataDirectory = kept.dataDirectory
        // The table's own bot sits under its level's name: no door's house bot needs it here.
        config.accounts.keepsHouseBotNames = false
        config.reservedMatches[kept.match] = ReservedMatch(tokens: [playerToken, botToken], mode: kept.mode, variant: kept.variant)
        let server: Server
        do { server = try start(config, preferring: kept.lastPort, log: log) } catch { throw .start(error) }
        kept.keep(port: server.port)
        let resumed = server.restoredMatches.contains(kept.match)
        let table = LocalTable(port: server.port, control: server.control, stopped: DispatchSemaphore(value: 0),
                               playerToken: playerToken, botToken: botToken, resumed: resumed)
        let stopped = table.stopped
        Server.runOnNewThread(server) { stopped.signal() }
        if resumed && keptToken == nil {
            table.stop()
            throw .tokenLost
        }
        if !resumed { store.set(playerToken, for: kept.tokenKey) }
        return table
    }

    /// Stops the server and waits until it has shut down (its journals settled). Once.
    package func stop() {
        control.stop()
        stopped.wait()
    }

    /// The last run's port first, so a friend's `watch` that keeps retrying it finds the resumed
    /// game; any free port when that one is taken meanwhile.
    static func start(_ config: ServerConfig, preferring port: UInt16?, log: ServerLog) throws(ServerStartError) -> Server {
        var config = config
        if let port {
            config.port = port
            do { return try Server(config: config, log: log) } catch {
                guard case .network = error else { throw error }
            }
        }
        config.port = 0
        return try Server(config: config, log: log)
    }
}
