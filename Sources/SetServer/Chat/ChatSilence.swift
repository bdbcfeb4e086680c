import Foundation
import SetRules

/// Who the operator silenced, read from a plain file that is read again whenever it changes, so
/// silencing takes effect without a restart and survives one. One entry a line:
///
///     address 203.0.113.9
///     ssh SHA256:Zm9vYmFy…
///     account 9f86d081884c7d65…   (the account key's SHA-256, as the server keeps it)
///     account key:9f86d081884c7d65…   (an account's `identity` as the accounts log spells it)
///
/// Blank lines and lines starting with `#` are ignored; a line of another shape is logged once
/// per reading and ignored. A missing file silences nobody.
struct ChatSilence {
    let path: String?
    /// How often the file's modification time and size are looked at, at most.
    static let checkEveryMs: Int64 = 1_000
    private var addresses: Set<String> = []
    private var identities: Set<PlayerIdentity> = []
    private var stamp: (modified: Int, size: Int)?
    private var checkedAt: Instant?

    init(path: String?) { self.path = path }

    /// Whether a person is silenced now, reading the file again first if it changed.
    mutating func silences(_ identity: PlayerIdentity, address: String, at now: Instant, log: (String) -> Void) -> Bool {
        refresh(at: now, log: log)
        return addresses.contains(address) || (identity != .guest && identities.contains(identity))
    }

    /// A key digest is hex, whichever case it was written in; an ssh fingerprint is base64, kept as it is.
    private static func folded(_ identity: PlayerIdentity) -> PlayerIdentity {
        if case .accountKey(let digest) = identity { return .accountKey(digest: digest.lowercased()) }
        return identity
    }

    private mutating func refresh(at now: Instant, log: (String) -> Void) {
        guard let path else { return }
        if let checkedAt, now.milliseconds(since: checkedAt) < Self.checkEveryMs { return }
        checkedAt = now
        var info = stat()
        guard stat(path, &info) == 0 else {
            if stamp != nil { log("chat: \(path) is gone: nobody is silenced") }
            (stamp, addresses, identities) = (nil, [], [])
            return
        }
        let current = (modified: info.st_mtim.tv_sec * 1_000_000_000 + info.st_mtim.tv_nsec, size: Int(info.st_size))
        guard stamp.map({ $0 != current }) ?? true else { return }
        stamp = current
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
            log("chat: \(path) could not be read as UTF-8 text; the previous list stays")
            return
        }
        (addresses, identities) = ([], [])
        for (number, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let words = raw.split(whereSeparator: \.isWhitespace)
            guard let kind = words.first, !kind.hasPrefix("#") else { continue }
            guard words.count == 2 else {
                log("chat: \(path) line \(number + 1) is not \"address|ssh|account VALUE\"; ignored")
                continue
            }
            let value = String(words[1])
            switch kind {
            case "address": addresses.insert(value)
            case "ssh": identities.insert(.sshKey(fingerprint: value))
            // The log's own spelling (`key:…`, `ssh:SHA256:…`) is taken as it is, so an operator
            // may copy an account's `identity` from `accounts.jsonl` unchanged.
            case "account": identities.insert(AccountRecord.identity(value).map(Self.folded) ?? .accountKey(digest: value.lowercased()))
            default: log("chat: \(path) line \(number + 1) names no address, ssh or account; ignored")
            }
        }
        log("chat: \(path) read: \(addresses.count) address(es) and \(identities.count) key(s) silenced")
    }
}
