import Foundation
import SetBot
import SetClient
import SetLocal
import SetNet
import SetRules
import SetScreen
import SetTerminal
import SetWire

/// One player's way through the door: the menu if asked (the way back to a game left waiting,
/// a name, the standings), then the client and maybe a bot.
package struct DoorSession {
    let options: DoorOptions
    let identity: DoorIdentity
    /// The name the player plays under: the one their key chose in the menu, else `key-…`.
    var name: String
    let folder: String
    /// The door's state folder, shared by every key: the house bots' account keys live there.
    let base: String
    /// How friends reach this door; nil when sshd did not say (no commands are shown then).
    let address: DoorAddress?
    /// An account answer as lines a person reads.
    let report: (AccountInfo) -> [String]

    package init(options: DoorOptions, identity: DoorIdentity, name: String, folder: String, base: String, address: DoorAddress?,
                 report: @escaping (AccountInfo) -> [String]) {
        self.options = options
        self.identity = identity
        self.folder = folder
        self.base = base
        self.address = address
        self.report = report
        self.name = name
        if identity.fingerprint != nil, let kept = DoorKeep(folder: folder).name { self.name = kept }
    }

    /// What this key keeps between sessions; a guest keeps nothing.
    var keep: DoorKeep? { identity.fingerprint == nil ? nil : DoorKeep(folder: folder) }

    var route: UnixRoute { UnixRoute(path: options.socket, greeting: identity.attestation) }

    /// Runs what the ssh command asked for. A game (the menu's, or a shortcut's) that ends well
    /// comes back to the menu, with the new rating: `q` leaves the game, not the door. One that
    /// failed ends the session with its status, its words left on the screen.
    mutating func run(_ request: DoorRequest) -> Int32 {
        var menu = DoorMenu(name: name, levels: DoorGame.levels.map(\.rawValue), waiting: nil, canRename: identity.fingerprint != nil)
        switch request {
        case .standing(let standing): return printStanding(standing)
        case .watch, .play:
            let status = play(request, colours: .full)
            guard status == 0 else { return status }
            menu.returned(waiting: keep?.game?.summary, note: afterGame(request))
        case .menu:
            menu.returned(waiting: keep?.game?.summary, note: nil)
        }
        while let (chosen, colours, resuming) = choose(in: &menu) {
            let status = play(chosen, colours: colours, afterShortcut: menu.awaitsEnterAfterShortcut, resuming: resuming)
            guard status == 0 else { return status }
            menu.returned(waiting: keep?.game?.summary, note: afterGame(chosen))
        }
        return 0
    }

    /// The menu until the player picks a game (nil: they quit), and whether it is the way back to
    /// the game left waiting. A rename or a look at the standings comes back to it.
    private mutating func choose(in menu: inout DoorMenu) -> (DoorRequest, DoorMenu.Colours, resuming: Bool)? {
        while true {
            let (choice, left) = MenuTerminal.choose(menu, logPath: folder + "/door.log")
            menu = left
            let variant: Variant? = left.variant == .classic ? nil : left.variant
            switch choice {
            case .quit: return nil
            case .resume:
                guard let waiting = keep?.game else { continue }
                return (.play(waiting), left.colours, true)
            case .quickDuel: return (.play(DoorGame(opponent: .anyone(match: nil), variant: variant)), left.colours, false)
            case .bot(let level):
                return (.play(DoorGame(opponent: .bot(BotLevel(rawValue: level) ?? DoorGame.defaultLevel), variant: variant)), left.colours, false)
            case .solo: return (.play(DoorGame(opponent: .nobody, variant: variant)), left.colours, false)
            case .watch: return (.watch(match: nil), left.colours, false)
            case .rename(let wanted): rename(to: wanted, in: &menu)
            case .standing: menu.page = standingPage(left.variant)
            case .lobby:
                if let game = lobby(variant: left.variant, note: &menu.note) { return (game, left.colours, false) }
            case .arenas:
                switch DoorAccounts.arenas(route: route) {
                case .success(let listed): menu.offer(listed.arenas, serverNow: listed.serverNow)
                case .failure(let error): menu.note = error.message
                }
            case .arena(let name): menu.note = arena(name, colours: left.colours)
            }
        }
    }

    /// The menu's line after a game: the key's rating in the game's variant as it stands now;
    /// nil after a solo game, a watch, or for a guest (no account, no rating).
    private func afterGame(_ request: DoorRequest) -> String? {
        guard identity.fingerprint != nil, case .play(let game) = request, game.opponent != .nobody else { return nil }
        let variant = game.variant ?? .classic
        guard case .success(let info) = DoorAccounts.ask(.profile(name: name), route: route) else { return nil }
        return Self.ratingNote(info, variant: variant)
    }

    /// "Your Classic rating: 1512 (3 rated games)." from a profile answer; nil when it has none.
    package static func ratingNote(_ info: AccountInfo, variant: Variant) -> String? {
        guard let rating = info.fields["ratings"]?.objectValue?[variant.rawValue]?.objectValue,
              let value = rating["rating"]?.intValue else { return nil }
        let mark = rating["provisional"]?.boolValue == true ? "?" : ""
        let games = rating["games"]?.intValue.map { $0 == 1 ? " (1 rated game)" : " (\($0) rated games)" } ?? ""
        return "Your \(variant.title) rating: \(value)\(mark)\(games)."
    }

    /// Takes `wanted` as this key's name from now on when the server's accounts have no other
    /// owner for it: the server renames the key's account (ratings kept) as it answers.
    private mutating func rename(to wanted: String, in menu: inout DoorMenu) {
        guard ClientMessageDecoder.isAcceptable(name: wanted, maxLength: ClientMessageDecoder.maxNameLength) else {
            menu.note = "A name is 1 to \(ClientMessageDecoder.maxNameLength) letters, digits or marks, no spaces at either end."
            return
        }
        // The server's own rule, with its reason: another account's name, or one kept for the house.
        if case .failure(let refusal) = DoorAccounts.claimName(wanted, route: route) {
            menu.note = refusal.message
            return
        }
        keep?.name = wanted
        name = wanted
        menu.renamed(to: wanted)
    }

    /// The page the menu's standing shows: the player's profile and newest games (a key's), and
    /// the leaderboard of the variant the menu has.
    private func standingPage(_ variant: Variant) -> [String] {
        var lines: [String] = []
        if identity.fingerprint != nil {
            lines += answer(.profile(name: name), unknown: "\(name): no games here yet.", shown: Self.menuProfile)
            lines += [""] + answer(.history(name: nil, after: nil, limit: 5), unknown: "").prefix(6)
            lines.append("")
        }
        lines += answer(.leaderboard(variant: variant, after: nil, limit: 8), unknown: "")
        return lines
    }

    /// "Who is here": the lobby screen on the door's own connection to the server, listed under
    /// this key's door name (the socket's first line vouches for the key). Returns the game it
    /// led to; nil goes back to the menu, with what went wrong in `note`.
    private func lobby(variant: Variant, note: inout String?) -> DoorRequest? {
        let state = LobbyApp(me: name, variant: variant)
        let outcome = LobbyTerminal.run(state, at: .door(route), logPath: folder + "/door.log", showsLogPath: false).outcome
        switch outcome {
        case .quit: return nil
        case .failed(let message):
            note = ServerText.printable(message)
            return nil
        case .quickDuel: return .play(DoorGame(opponent: .anyone(match: nil), variant: variant == .classic ? nil : variant))
        case .join(let match): return .play(DoorGame(opponent: .anyone(match: match)))
        case .watch(let match): return .watch(match: match)
        case .play(let match, let token, _):
            // The seat is the challenge's token's, kept where the door's client looks for it.
            let game = DoorGame(opponent: .anyone(match: match))
            SeatTokenStore(directory: folder).set(token, for: "door \(game.command)")
            return .play(game)
        }
    }

    /// An arena chosen in the menu, played on this session's pty over the door's socket as the
    /// door's player (its duels on the same connection, a redirect's ticket sent with the join
    /// again); returns what the menu says after it: how it ended when the server ended it.
    private func arena(_ name: String, colours: DoorMenu.Colours) -> String? {
        let (status, message) = ArenaClient.play(clientOptions(.menu, colours: colours), arena: name)
        return status == 0 ? nil : message.map { ServerText.printable($0) }
    }

    /// `ssh … profile`, `history`, `leaderboard`: the answer, printed; 1 when there is none.
    private func printStanding(_ standing: DoorStanding) -> Int32 {
        let query: AccountQuery
        switch standing {
        case .profile(let asked):
            guard let who = asked ?? (identity.fingerprint == nil ? nil : name) else {
                Door.say("setgame: a guest has no profile; name a player, or come with an ssh key")
                return 1
            }
            query = .profile(name: who)
        case .history:
            guard identity.fingerprint != nil else {
                Door.say("setgame: a guest keeps no games; come with an ssh key")
                return 1
            }
            query = .history(name: nil, after: nil, limit: nil)
        case .leaderboard(let variant): query = .leaderboard(variant: variant, after: nil, limit: nil)
        }
        switch DoorAccounts.ask(query, route: route) {
        case .success(let info):
            LineOutput.write(report(info), to: STDOUT_FILENO)
            return 0
        case .failure(let error) where error.code == .noSuchPlayer && standing == .profile(name: nil):
            // One's own profile before a first game: nothing is wrong, there is only nothing yet.
            LineOutput.write(["\(name): no games here yet."], to: STDOUT_FILENO)
            return 0
        case .failure(let error):
            Door.say("setgame: \(error.message)")
            return 1
        }
    }

    /// The profile as the menu's standing page shows it, above the games and the leaderboard on
    /// one screen: its newest arenas only (`ssh … profile` prints them all).
    package static func menuProfile(_ info: AccountInfo) -> AccountInfo {
        var shown = info
        if let arenas = info.fields["arenas"]?.arrayValue, arenas.count > menuArenas { shown.fields["arenas"] = .array(Array(arenas.prefix(menuArenas))) }
        return shown
    }

    /// How many arenas the menu's standing page lists.
    static let menuArenas = 3

    /// An account answer's lines (of what `shown` keeps of it), or what went wrong in words;
    /// `unknown` when the player has none.
    private func answer(_ query: AccountQuery, unknown: String, shown: (AccountInfo) -> AccountInfo = { $0 }) -> [String] {
        switch DoorAccounts.ask(query, route: route) {
        case .success(let info): return report(shown(info))
        case .failure(let error): return error.code == .noSuchPlayer ? [unknown] : [error.message]
        }
    }

    /// What the client is told for `request`: the door's own commands, no log path, the words
    /// for a key's kept seat or a guest's unkept one, the start box of a bot duel (whose bot is
    /// `play`'s to make).
    /// `afterShortcut`: the menu was left with a shortcut, and the Enter typed after it has not
    /// come yet. `resuming`: the menu's way back to the game left waiting was chosen; any other
    /// way to a game gives up a kept seat whose game is over for a new one.
    package func clientOptions(_ request: DoorRequest, colours: DoorMenu.Colours, afterShortcut: Bool = false,
                               resuming: Bool = false) -> ClientOptions {
        var client = ClientOptions(name: name, colorblind: colours == .letters, stateDirectory: folder)
        client.route = route
        client.command = "ssh"
        client.noColor = colours == .none
        client.door = address?.terminalCommand
        // The keys' login lets in only a friend with a key; the guests' lets in anyone.
        if let address, address.user != options.guestUser {
            client.inviteNote = "No ssh key? \(options.guestUser)@ in place of \(address.user)@."
        }
        client.showsLogPath = false
        // The join goes with the door's first line, not a round trip later: the server is this
        // host's own and the line is its word, and a login waits for nothing it need not.
        client.joinsAtOnce = true
        // A player who chose no name (a key's `key-…`, a guest's number another guest sits under)
        // takes the server's suggestion when it is taken; a chosen name is the player's to change.
        client.takesSuggestedName = keep?.name == nil
        if keep == nil {
            client.quitNote = "A guest's seat is not kept: leaving gives this game up."
        } else {
            client.rejoinHint = "ssh in again to come back"
        }
        switch request {
        case .menu, .standing: break
        case .watch(let match):
            client.role = .spectator
            client.match = match
        case .play(let game):
            client.variant = game.variant
            // One seat per door command: the same game asked for again (or offered by the menu) finds it.
            client.tokenKey = "door \(game.command)"
            switch game.opponent {
            case .anyone(let match): client.match = match
            case .nobody: client.mode = .solo
            case .bot(let level):
                let match = botMatch(game.variant)
                client.match = match
                // The server seats only the connections whose door line names a bot match.
                var attestation = identity
                attestation.match = match
                client.route = UnixRoute(path: options.socket, greeting: attestation.attestation)
                // The bot joins at the player's first key, as `play`'s: the Enter of a newcomer who
                // typed "2⏎" at the menu starts the duel instead of calling Set! in it. Whether it
                // is a kept duel coming back only the server knows (one nobody moved in is not
                // kept): the box's key line says "resume" from what it sends.
                client.startBoxTitle = "You against the \(level.rawValue) bot"
            }
            if let match = client.match, let address { client.watchCommand = address.command("watch \(match)") }
        }
        client.dropsLeadingEnter = afterShortcut && client.startBoxTitle == nil
        // A new game of a kind (a quick duel, solo), not a named match or the bot's own.
        if case .play(let game) = request, game.opponent == .anyone(match: nil) || game.opponent == .nobody {
            client.startsAfreshAfterAFinishedGame = !resuming
        }
        return client
    }

    /// Runs the client on this session's pty for `request`, with a bot beside it for a bot duel.
    func play(_ request: DoorRequest, colours: DoorMenu.Colours, afterShortcut: Bool = false, resuming: Bool = false) -> Int32 {
        var client = clientOptions(request, colours: colours, afterShortcut: afterShortcut, resuming: resuming)
        var bot: LocalBot?
        var kept: DoorGame?
        switch request {
        case .menu, .standing: return 0
        case .watch: break
        case .play(let game):
            if case .bot(let level) = game.opponent, let match = client.match {
                let beside = houseBot(level, match: match, variant: game.variant)
                client.botBeside = BotBeside(start: { beside.start() }, hold: { beside.hold($0) }, listen: { beside.listen($0) })
                bot = beside
            }
            kept = game
        }
        keep?.game = kept ?? keep?.game
        let status = TerminalClient.run(client)
        bot?.stop()
        // The client forgets the seat's token once the game is over or resigned: nothing waits then.
        if let kept, let key = client.tokenKey, SeatTokenStore(directory: folder).token(for: key) == nil, keep?.game == kept {
            keep?.game = nil
        }
        return status
    }

    /// The match a key plays its bot in: the same each time, so the same command finds the seat
    /// again after a drop; a guest's is new each time.
    func botMatch(_ variant: Variant?) -> String {
        let id = identity.fingerprint.map { String(DoorIdentity.folder(fingerprint: $0).prefix(8)) }
            ?? String(format: "%08x", UInt32.random(in: 0...UInt32.max))
        return "bot-\(id)" + (variant.map { $0 == .classic ? "" : "-\($0.rawValue)" } ?? "")
    }

    /// The bot, in this process, on the door's socket from the player's own address: it counts
    /// against the player's share, as a second terminal of theirs would. Its seat token is kept
    /// beside the player's, so a resumed duel gets its bot back too. It connects once started.
    func houseBot(_ level: BotLevel, match: String, variant: Variant?) -> LocalBot {
        let store = SeatTokenStore(directory: folder)
        let key = "bot \(match)"
        var bot = BotOptions()
        bot.route = UnixRoute(path: options.socket,
                              greeting: DoorIdentity(fingerprint: nil, address: identity.address, houseBot: true, match: match).attestation)
        bot.match = match
        bot.level = level
        bot.account = Door.houseBotAccount("bot-\(level.rawValue)", in: base)
        // The house bot's name belongs to its account: a guest asking for it would be refused.
        bot.name = (bot.account == nil ? "guest-bot-" : "bot-") + level.rawValue
        bot.variant = variant
        bot.token = store.token(for: key)
        bot.seed = UInt64.random(in: 0...UInt64.max)
        return LocalBot(bot) { token in store.set(token, for: key) }
    }
}
