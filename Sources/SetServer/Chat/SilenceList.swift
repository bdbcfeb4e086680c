import SetRules

/// Who the operator silenced, as one reading of the `silenced` file found it. One entry a line:
///
///     address 203.0.113.9
///     ssh SHA256:Zm9vYmFy…
///     account 9f86d081884c7d65…   (the account key's SHA-256, as the server keeps it)
///     account key:9f86d081884c7d65…   (an account's `identity` as the accounts database spells it)
///
/// Blank lines and lines starting with `#` are ignored; a line of another shape is noted for the
/// log and ignored. Pure, so a thread other than the loop's can parse a large file.
struct SilenceList: Sendable {
    private(set) var addresses: Set<String> = []
    private(set) var identities: Set<PlayerIdentity> = []
    /// What the reading has to say in the server's log, in order.
    private(set) var notes: [String] = []

    /// Nobody silenced.
    init() {}

    /// The list `text`, read from `path`, gives.
    init(parsing text: String, from path: String) {
        for (number, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let words = raw.split(whereSeparator: \.isWhitespace)
            guard let kind = words.first, !kind.hasPrefix("#") else { continue }
            guard words.count == 2 else {
                notes.append("chat: \(path) line \(number + 1) is not \"address|ssh|account VALUE\"; ignored")
                continue
            }
            let value = String(words[1])
            switch kind {
            case "address": addresses.insert(value)
            case "ssh": identities.insert(.sshKey(fingerprint: value))
            // The log's own spelling (`key:…`, `ssh:SHA256:…`) is taken as it is, so an operator
            // may copy an account's `identity` from the accounts database unchanged.
            case "account": identities.insert(PlayerIdentity(storedText: value).map(Self.folded) ?? .accountKey(digest: value.lowercased()))
            default: notes.append("chat: \(path) line \(number + 1) names no address, ssh or account; ignored")
            }
        }
        notes.append("chat: \(path) read: \(addresses.count) address(es) and \(identities.count) key(s) silenced")
    }

    /// Whether the list silences this person.
    func silences(_ identity: PlayerIdentity, address: String) -> Bool {
        addresses.contains(address) || (identity != .guest && identities.contains(identity))
    }

    /// A key digest is hex, whichever case it was written in; an ssh fingerprint is base64, kept as it is.
    private static func folded(_ identity: PlayerIdentity) -> PlayerIdentity {
        if case .accountKey(let digest) = identity { return .accountKey(digest: digest.lowercased()) }
        return identity
    }
}
