import Foundation
import SetWire

/// Who an ssh player is and where from, read from what sshd hands the forced command: the key
/// it accepted (`ExposeAuthInfo`'s `SSH_USER_AUTH` file) and `SSH_CONNECTION`. It is exactly what
/// the door's first line tells the server, so it is that line's own type. Pure: the caller reads
/// the file and the environment.
package typealias DoorIdentity = DoorAttestation

extension DoorAttestation {
    /// The fingerprint of the first public key in an `SSH_USER_AUTH` file ("publickey TYPE
    /// BASE64" lines): `SHA256:` and the unpadded base64 of the SHA-256 of the key's blob, which
    /// is exactly what `ssh-keygen -lf` prints. Nil when no key was used.
    package static func fingerprint(authInfo: String) -> String? {
        for line in authInfo.split(whereSeparator: \.isNewline) {
            let fields = line.split(separator: " ")
            guard fields.count >= 3, fields[0] == "publickey", let blob = Data(base64Encoded: String(fields[2])) else { continue }
            let digest = Data(SHA256.hash(Array(blob))).base64EncodedString()
            return "SHA256:" + digest.prefix { $0 != "=" }
        }
        return nil
    }

    /// The client's address: the first field of `SSH_CONNECTION` ("ADDRESS PORT LOCAL PORT").
    package static func address(sshConnection: String?) -> String? {
        guard let first = sshConnection?.split(separator: " ").first.map(String.init), DoorAttestation.isAddress(first) else { return nil }
        return first
    }

    /// The line that tells the server who this is (Protocol.md, "The door socket").
    package var attestation: [UInt8] {
        ClientMessageEncoder.line(ClientRequest(.door(self)))
    }

    /// A key's own folder name: the fingerprint's hex digest, safe in any file system.
    package static func folder(fingerprint: String) -> String { String(SHA256.hex(fingerprint).prefix(32)) }
}
