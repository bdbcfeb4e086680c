import SetDatabase
import SetWire

/// Names drawn alike whose skeletons differ: `aIice` (a capital I) beside `alice`, `lan` beside
/// `Ian`, `a|ice`. The skeleton cannot fold `I` into `l` without parting names that are one
/// (`PlayerName.drawn`), so a new name is checked against the store instead: a name another
/// account's name is drawn like is refused, as an owned name is. Names that were alike before
/// this check keep their owners; only a name being taken (a new account, a rename) is checked.
enum LookAlikeNames {
    /// The SQL form of `PlayerName.lookAlikeKey`, on the owned names; the index and the query
    /// must write it the same way for the engines to use the one for the other.
    static let keyExpression = "replace(replace(name_skeleton, 'l', 'i'), '|', 'i')"

    /// Migration 16: an index on the key, so a name's look-alikes are found by one lookup.
    static let migration = Migration(version: 16, summary: "accounts_look_alike: owned names found by how they are drawn (aIice beside alice)") { _ in
        ["CREATE INDEX accounts_look_alike ON accounts ((\(keyExpression)))"]
    }
}

extension SQLAccountStore {
    func account(lookingLike name: String) throws(StoreError) -> StoredAccount? {
        try Self.storing { () throws(DatabaseError) in try accountRow(lookingLike: name) }
    }

    /// The account, if any, owning a name drawn like `name` under another skeleton.
    func accountRow(lookingLike name: String) throws(DatabaseError) -> StoredAccount? {
        guard let key = PlayerName.lookAlikeKey(name) else { return nil }
        let skeleton = PlayerName.skeleton(name)
        for row in try database.query("SELECT id, name FROM accounts WHERE \(LookAlikeNames.keyExpression) = $1 ORDER BY id", .text(key)) {
            let owned = try row.text(1)
            if PlayerName.skeleton(owned) != skeleton, PlayerName.drawnAlike(owned, name) { return try accountRow(id: try row.int(0)) }
        }
        return nil
    }
}
