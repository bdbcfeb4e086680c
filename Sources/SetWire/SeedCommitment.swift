/// The promise a server makes about a deal before it is played: the hash of the seed, published
/// at the start; the seed itself, revealed at the end, lets anyone check the deal was not changed.
package enum SeedCommitment {
    /// Lowercase hex SHA-256 of "setgame:<seed in decimal>"; `printf 'setgame:%s' SEED | sha256sum`.
    package static func commitment(for seed: UInt64) -> String {
        SHA256.hex("setgame:\(seed)")
    }

    package static func verify(seed: UInt64, against commitment: String) -> Bool {
        Self.commitment(for: seed) == commitment.lowercased()
    }
}
