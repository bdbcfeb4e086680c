/// What seating a player does to the accounts, decided before anything is written and carried
/// out (`Accounts.admit`) only once the seat is sure: a refused join creates and renames nothing.
enum AccountAdmission {
    /// A guest: no account, nothing written.
    case guest
    /// The player's account, under the name it has.
    case existing(AccountBook.Account)
    /// The player's account, under a new name.
    case renaming(AccountBook.Account, to: String)
    /// A new account for an identity met for the first time.
    case creating(PlayerIdentity, name: String, bot: Bool)
}
