/// The names the ssh door hands out, which the server keeps for what they name.
extension DoorAttestation {
    /// A short name of a key, the same each time it comes back: `key-` and the fingerprint's first
    /// six letters and digits. Anyone can compute it from the public key, so the server keeps it
    /// for that key (`name_taken` for anyone else).
    package static func name(fingerprint: String) -> String {
        "key-" + String(fingerprint.dropFirst("SHA256:".count).filter { $0.isLetter || $0.isNumber }.prefix(6))
    }

    /// How door bot matches' names begin: matches so named seat only the connections the door
    /// started for them (`match` on their door line), as `setgame play`'s match seats only its tokens.
    package static let botMatchPrefix = "bot-"

    /// Whether a match of this name is a door bot match.
    package static func isBotMatch(_ name: String) -> Bool { name.hasPrefix(botMatchPrefix) }
}
