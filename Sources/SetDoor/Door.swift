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
    /// How friends reach this door (`HOST` or `HOST:PORT`), for the commands it shows; nil takes
    /// what sshd saw (`DoorAddress`).
    package var address: String?

    package init() {}
}

/// `setgame door`: what sshd runs for every ssh player. It reads who the player is from sshd
/// (never from the player), tells the server over its trusted socket, and runs the ordinary
/// terminal client on the session's pty: the menu, or the game the ssh command named.
package enum Door {
    /// Runs one ssh session; returns the exit status ssh hands back to the player.
    /// `report` turns an account answer into the lines a person reads (the CLI's `AccountReport`).
    package static func run(_ options: DoorOptions, environment: [String: String] = ProcessEnvironment.variables,
                            report: @escaping (AccountInfo) -> [String]) -> Int32 {
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
        let user = environment["USER"] ?? "set"
        let doorAddress = DoorAddress.of(user: user, sshConnection: environment["SSH_CONNECTION"], configured: options.address)
        if request.needsTerminal, !TerminalSession.hasTerminal {
            LineOutput.write(DoorRequest.noTerminal(environment["SSH_ORIGINAL_COMMAND"], address: doorAddress), to: STDERR_FILENO)
            return 1
        }
        var session = DoorSession(options: options, identity: identity, name: name, folder: folder, base: base,
                                  address: doorAddress, report: report)
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
