/// Who a connection speaks for, as far as the server can tell: the key accounts, ratings and
/// seat recovery hang on.
package enum PlayerIdentity: Hashable, Sendable {
    /// Nobody the server could recognise again: casual games only, under a guest name.
    case guest
    /// An ssh public key that sshd checked, vouched for by the door over its trusted socket;
    /// the fingerprint is `SHA256:…` as `ssh-keygen -l` prints it.
    case sshKey(fingerprint: String)
    /// An account key a client made and keeps; the server keeps only its SHA-256 digest (hex),
    /// so a leaked data folder leaks no key.
    case accountKey(digest: String)
}
