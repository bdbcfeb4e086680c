/// An identity as the book keeps it: an account key's digest as its 32 bytes (100,000 accounts
/// would otherwise keep 100,000 strings of 64 digits, twice: in the account and in the index),
/// any other identity as it is.
enum StoredIdentity: Hashable {
    case accountKey(Digest)
    case other(PlayerIdentity)

    init(_ identity: PlayerIdentity) {
        if case .accountKey(let digest) = identity, let packed = Digest(hex: digest) {
            self = .accountKey(packed)
        } else {
            self = .other(identity)
        }
    }

    var identity: PlayerIdentity {
        switch self {
        case .accountKey(let digest): .accountKey(digest: digest.hex)
        case .other(let identity): identity
        }
    }
}
