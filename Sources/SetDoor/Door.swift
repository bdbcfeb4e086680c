import Foundation
import Glibc
import SetBot
import SetLocal
import SetNet
import SetRules
import SetScreen
import SetTerminal
import SetWire

/// What `setgame door` is told on its command line (sshd's `ForceCommand`).
package struct DoorOptions: Equatable, Sendable {
    /// The server's door socket (`setgame serve --door-socket`).
    package var socket = "/run/setgame/door.sock"
    /// Where each key's seat tokens and logs are kept; nil is the door user's state folder.
    package var stateFolder: String?
    /// The login that takes keyless guests: no key is looked for there.
    package var guestUser = "guest"

    package init() {}
}

/// `setgame door`: what sshd runs for every ssh player. It reads who the player is from sshd
/// (never from the player), tells the server over its trusted socket, and runs the ordinary
/// terminal client on the session's pty: the menu, or the game the ssh command named.
package enum Door {
    /// Runs one ssh session; returns the exit status ssh hands back to the player.
    package static func run(_ options: DoorOptions, environment: [String: String] = ProcessEnvironment.variables) -> Int32 {
        let request: DoorRequest
        switch DoorRequest.parse(environment["SSH_ORIGINAL_COMMAND"]) {
        case .success(let parsed): request = parsed
        case .failure(let usage):
            say(usage.line)
            return 64
        }
        guard let address = DoorIdentity.address(sshConnection: environment["SSH_CONNECTION"]) else {
            say("setgame door: run it as sshd's ForceCommand (SSH_CONNECTION is not set)")
            return 1
        }
        var fingerprint: String?
        if environment["USER"] != options.guestUser {
            let info = environment["SSH_USER_AUTH"].flatMap { try? String(contentsOfFile: $0, encoding: .utf8) }
            guard let found = info.flatMap(DoorIdentity.fingerprint(authInfo:)) else {
                say("setgame: this door knows players by their ssh key; without one, log in as \(options.guestUser)@ this host")
                return 1
            }
            fingerprint = found
        }
        let identity = DoorIdentity(fingerprint: fingerprint, address: address)
        let name = fingerprint.map(DoorIdentity.name) ?? "guest-\(Int.random(in: 1_000...9_999))"
        let base = options.stateFolder ?? ProcessEnvironment.stateFolder(environment: environment) + "/door"
        // A key keeps its seat tokens in a folder of its own; a guest's (its log) vanish with the session.
        let temporary = NSTemporaryDirectory()
        if fingerprint == nil { GuestFolders.sweep(in: temporary) }
        let folder = fingerprint.map { base + "/keys/" + DoorIdentity.folder(fingerprint: $0) } ?? GuestFolders.path(in: temporary)
        try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        defer { if fingerprint == nil { try? FileManager.default.removeItem(atPath: folder) } }
        let session = DoorSession(options: options, identity: identity, name: name, folder: folder, base: base, environment: environment)
        return session.run(request)
    }

    /// A house bot's account key: one account per level for the whole door, as `setgame bot`
    /// keeps one per name, so every key's games against it are rated and it is listed as a bot.
    /// Nil where the door's state folder is not writable (the guest login): it plays as a guest,
    /// which costs nothing, since a guest's games are unrated anyway.
    package static func houseBotAccount(_ name: String, in base: String) -> String? {
        guard access(base, W_OK) == 0 else { return nil }
        return SeatTokenStore(accountsIn: base).accountKey(for: "bot:\(name)@door")
    }

    static func say(_ line: String) { LineOutput.write([line], to: STDERR_FILENO) }
}

/// One player's way through the door: the menu if asked, then the client and maybe a bot.
struct DoorSession {
    let options: DoorOptions
    let identity: DoorIdentity
    let name: String
    let folder: String
    /// The door's state folder, shared by every key: the house bots' account keys live there.
    let base: String
    let environment: [String: String]

    func run(_ request: DoorRequest) -> Int32 {
        var request = request
        var colourBlind = false, noColour = false
        if request == .menu {
            let menu = DoorMenu(name: name, levels: DoorGame.levels.map(\.rawValue))
            let (choice, left) = MenuTerminal.choose(menu, logPath: folder + "/door.log")
            colourBlind = left.colours == .letters
            noColour = left.colours == .none
            let variant: Variant? = left.variant == .classic ? nil : left.variant
            switch choice {
            case .quit: return 0
            case .quickDuel: request = .play(DoorGame(opponent: .anyone(match: nil), variant: variant))
            case .bot(let level): request = .play(DoorGame(opponent: .bot(BotLevel(rawValue: level) ?? DoorGame.defaultLevel), variant: variant))
            case .solo: request = .play(DoorGame(opponent: .nobody, variant: variant))
            case .watch: request = .watch(match: nil)
            }
        }
        var client = ClientOptions(name: name, colorblind: colourBlind, stateDirectory: folder)
        client.route = UnixRoute(path: options.socket, greeting: identity.attestation)
        client.command = "ssh"
        client.noColor = noColour
        // The player chose no name: a taken one (a guest's number another guest sits under) is swapped.
        client.takesSuggestedName = true
        var bot: LocalBot?
        switch request {
        case .menu: return 0
        case .watch(let match):
            client.role = .spectator
            client.match = match
        case .play(let game):
            client.variant = game.variant
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
                bot = startBot(level, match: match, variant: game.variant)
            }
            if let match = client.match { client.watchCommand = watchCommand(match) }
        }
        let status = TerminalClient.run(client)
        bot?.stop()
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
    /// beside the player's, so a resumed duel gets its bot back too.
    func startBot(_ level: BotLevel, match: String, variant: Variant?) -> LocalBot {
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
        let local = LocalBot(bot) { token in store.set(token, for: key) }
        local.start()
        return local
    }

    /// How someone else watches: the same ssh door, with the watch command.
    func watchCommand(_ match: String) -> String {
        let fields = (environment["SSH_CONNECTION"] ?? "").split(separator: " ").map(String.init)
        let user = environment["USER"] ?? "set"
        guard fields.count >= 4 else { return "ssh \(user)@HOST watch \(match)" }
        let host = fields[2].contains(":") ? "[\(fields[2])]" : fields[2]
        return (fields[3] == "22" ? "ssh " : "ssh -p \(fields[3]) ") + "\(user)@\(host) watch \(match)"
    }
}
