/// Why a database call did not do what it was asked, as a value: a code the caller acts on and
/// the engine's own words for the log.
package struct DatabaseError: Error, Equatable, CustomStringConvertible {
    package enum Code: String, Equatable, Sendable {
        /// The database cannot be reached or cannot commit now (a lost connection, a restart, a
        /// full disk, a read-only file, a lock held too long): nothing was changed; try again.
        case unavailable
        /// A unique index already holds the value (a name, an identity, an id).
        case uniqueViolation
        /// Another transaction changed what this one read (PostgreSQL SERIALIZABLE, a deadlock):
        /// run the whole transaction again.
        case serializationFailure
        /// The statement itself is wrong (a bug here) or a row does not have the type asked for.
        case invalidStatement
        /// The schema is newer than this program, or a migration failed.
        case migration
    }

    package var code: Code
    package var message: String

    package init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    package var description: String { "\(code.rawValue): \(message)" }
}
