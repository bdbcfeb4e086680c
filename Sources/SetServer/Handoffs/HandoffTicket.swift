import SetDatabase
import SetWire

/// A door player handed from the node the ssh door reached to the node holding their match
/// (Protocol.md, "Handoff tickets"): the redirecting node writes who the door vouched for under
/// a ticket nobody can guess, and the node that takes the join seats that identity once, for
/// that match, within `lifetimeMs`. Nothing else on a TCP connection can claim a door identity.
package struct DoorHandoff: Equatable, Sendable {
    /// Who the door vouched for: an ssh key, or a guest.
    package var identity: PlayerIdentity
    /// The name the door's player joined under.
    package var name: String
    /// The only match the ticket seats in.
    package var match: String
    /// Where the door said its player came from (the `door` line's `address`): the node that
    /// seats the ticket counts the connection there, not at the door host's address it arrives
    /// from. Nil only in a row written by a node older than migration 6.
    package var address: String?

    package init(identity: PlayerIdentity, name: String, match: String, address: String?) {
        self.identity = identity
        self.name = name
        self.match = match
        self.address = address
    }

    /// How long a ticket can be used: the client connects at once; a slow link gets a few seconds.
    package static let lifetimeMs: Int64 = 30_000

    /// A fresh ticket: 32 bytes from the system's cryptographic generator (getrandom, the kernel's
    /// /dev/urandom pool), in unpadded base64url, 43 characters.
    package static func makeTicket() -> String {
        var generator = SystemRandomNumberGenerator()
        var bytes: [UInt8] = []
        for _ in 0..<4 { withUnsafeBytes(of: generator.next()) { bytes += $0 } }
        return Base64URL.encode(bytes)
    }

    /// An identity as the `handoffs` table keeps it (as the accounts table does, and "guest").
    static func text(_ identity: PlayerIdentity) -> String {
        switch identity {
        case .guest: "guest"
        case .sshKey(let fingerprint): "ssh:" + fingerprint
        case .accountKey(let digest): "key:" + digest
        }
    }

    static func identity(_ text: String) -> PlayerIdentity? {
        if text == "guest" { return .guest }
        if text.hasPrefix("ssh:") { return .sshKey(fingerprint: String(text.dropFirst(4))) }
        if text.hasPrefix("key:") { return .accountKey(digest: String(text.dropFirst(4))) }
        return nil
    }

    /// The `handoffs` table: migration 3 of the accounts database (`SQLAccountSchema`).
    static let migration = Migration(version: 3, summary: "handoffs: one-use tickets that carry a door identity to another node") { _ in
        ["CREATE TABLE handoffs (ticket TEXT PRIMARY KEY, identity TEXT NOT NULL, name TEXT NOT NULL, match TEXT NOT NULL, expires_wall_ms BIGINT NOT NULL)",
         "CREATE INDEX handoffs_expiry ON handoffs (expires_wall_ms)"]
    }

    /// Migration 6: the attested address beside each ticket. Nullable, so nodes of the version
    /// before (which neither write nor read it) can share the store while the new one rolls out.
    static let addressMigration = Migration(version: 6, summary: "handoffs.address: where the door's player came from") { _ in
        ["ALTER TABLE handoffs ADD COLUMN address TEXT"]
    }
}

/// Unpadded base64url (RFC 4648 §5): letters, digits, '-' and '_'.
enum Base64URL {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)

    static func encode(_ bytes: [UInt8]) -> String {
        var out: [UInt8] = []
        var index = 0
        while index < bytes.count {
            let chunk = bytes[index..<min(index + 3, bytes.count)]
            var value = 0
            for (offset, byte) in chunk.enumerated() { value |= Int(byte) << (16 - 8 * offset) }
            for digit in 0...chunk.count { out.append(alphabet[(value >> (18 - 6 * digit)) & 63]) }
            index += 3
        }
        return String(decoding: out, as: UTF8.self)
    }
}

/// Where handoff tickets are kept: the store the nodes share.
protocol HandoffStore: AnyObject {
    /// Writes a ticket for `handoff`, good until `expiresWallMs`; drops tickets expired by `nowWallMs`.
    func mint(_ ticket: String, for handoff: DoorHandoff, expiresWallMs: Int64, nowWallMs: Int64) throws(StoreError)
    /// The handoff `ticket` carries, if it exists, is unexpired at `nowWallMs` and names `match`:
    /// deleted in the same statement, so it seats once. Nil otherwise (and nothing is deleted).
    func redeem(_ ticket: String, match: String, nowWallMs: Int64) throws(StoreError) -> DoorHandoff?
}

extension SQLAccountStore: HandoffStore {
    func mint(_ ticket: String, for handoff: DoorHandoff, expiresWallMs: Int64, nowWallMs: Int64) throws(StoreError) {
        try Self.storing { () throws(DatabaseError) in
            try database.transaction { () throws(DatabaseError) in
                try database.execute("DELETE FROM handoffs WHERE expires_wall_ms <= $1", .int(nowWallMs))
                try database.execute("""
                    INSERT INTO handoffs (ticket, identity, name, match, expires_wall_ms, address) VALUES ($1, $2, $3, $4, $5, $6)
                    """, .text(ticket), .text(DoorHandoff.text(handoff.identity)), .text(handoff.name),
                    .text(handoff.match), .int(expiresWallMs), handoff.address.map(SQLValue.text) ?? .null)
            }
        }
    }

    func redeem(_ ticket: String, match: String, nowWallMs: Int64) throws(StoreError) -> DoorHandoff? {
        try Self.storing { () throws(DatabaseError) -> DoorHandoff? in
            // One statement: checked and consumed together, so two joins with one ticket seat once.
            guard let row = try database.row("""
                DELETE FROM handoffs WHERE ticket = $1 AND match = $2 AND expires_wall_ms > $3 RETURNING identity, name, address
                """, .text(ticket), .text(match), .int(nowWallMs)) else { return nil }
            guard let identity = DoorHandoff.identity(try row.text(0)) else { return nil }
            return DoorHandoff(identity: identity, name: try row.text(1), match: match, address: try row.optionalText(2))
        }
    }
}
