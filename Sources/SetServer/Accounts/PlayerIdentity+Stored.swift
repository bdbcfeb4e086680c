/// An identity as the accounts store spells it (`identity` in the accounts table, as the old
/// accounts log did): `key:<digest>` or `ssh:<fingerprint>`. The operator copies it from there
/// into `silenced`.
extension PlayerIdentity {
    var storedText: String {
        switch self {
        case .guest: "guest"
        case .sshKey(let fingerprint): "ssh:" + fingerprint
        case .accountKey(let digest): "key:" + digest
        }
    }

    /// The identity a stored text spells; nil for a guest or any other text.
    init?(storedText text: String) {
        if text.hasPrefix("ssh:") {
            self = .sshKey(fingerprint: String(text.dropFirst(4)))
        } else if text.hasPrefix("key:") {
            self = .accountKey(digest: String(text.dropFirst(4)))
        } else {
            return nil
        }
    }
}
