import SetWire

/// A profile as the store reads it: the answer's fields, and whether the account ever joined an
/// arena. Its arenas are read only then, so most players' profile is one statement, one round
/// trip to PostgreSQL (`Server.reply(to:…)`).
struct StoredProfile: Sendable {
    var info: AccountInfo
    var joinedArenas: Bool
}
