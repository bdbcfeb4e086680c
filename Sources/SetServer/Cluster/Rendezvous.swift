import SetWire

/// Rendezvous (highest random weight) hashing: every node computes the same home for a match
/// from the same list of live nodes, without asking anyone, and a node joining or leaving moves
/// only the matches it wins or held. Pure.
///
/// The weight is SHA-256 of "match\0node", not Swift's `Hasher`: that one is seeded per process,
/// and the nodes must agree.
enum Rendezvous {
    /// The node of `nodes` that a new match named `match` is placed on; nil when there is none.
    static func home(of match: String, among nodes: [String]) -> String? {
        nodes.max { a, b in
            let (weightA, weightB) = (weight(match, a), weight(match, b))
            return weightA != weightB ? weightA < weightB : a < b
        }
    }

    /// The weight of `node` for `match`: the first eight bytes of the hash, big-endian.
    static func weight(_ match: String, _ node: String) -> UInt64 {
        let digest = SHA256.hash(Array(match.utf8) + [0] + Array(node.utf8))
        return digest.prefix(8).reduce(0) { $0 << 8 | UInt64($1) }
    }
}
