import Foundation
import SetWire

/// What the store knows of a joining player, read off the loop: the account its identity owns
/// (none for a guest), the account that owns the name it asks for, and, when the name is not
/// already its account's, the account owning a name drawn like it (`LookAlikeNames`).
struct JoinLookup: Sendable, Equatable {
    var account: StoredAccount?
    var owner: StoredAccount?
    var lookAlike: StoredAccount?

    /// Runs on the accounts worker.
    static func find(_ name: String, identity: PlayerIdentity, in store: AccountStore) throws(StoreError) -> JoinLookup {
        let account = identity == .guest ? nil : try store.account(for: identity)
        let owner = try store.account(named: name)
        // A name already the account's keeps it, look-alikes from before the check or not.
        let lookAlike = account?.name == name ? nil : try store.account(lookingLike: name)
        return JoinLookup(account: account, owner: owner, lookAlike: lookAlike)
    }
}

/// What seating a player does to the accounts, decided on the loop from a `JoinLookup` and the
/// match as it is then; written (`AccountWrite`) only once the seat is sure, so a refused join
/// creates and renames nothing.
enum SeatAdmission: Equatable {
    /// A guest: no account, nothing written.
    case guest
    /// The player's account, under the name it has.
    case existing(StoredAccount)
    /// The player's account, under a new name.
    case renaming(StoredAccount, to: String)
    /// A new account for an identity met for the first time.
    case creating(PlayerIdentity, name: String, bot: Bool)

    /// Whether taking the seat waits for a write to the store first.
    var writes: Bool {
        switch self {
        case .guest, .existing: false
        case .renaming, .creating: true
        }
    }

    /// The account a seat is taken with, when nothing needs writing.
    var account: StoredAccount? {
        switch self {
        case .existing(let account): account
        case .guest, .renaming, .creating: nil
        }
    }
}

/// Why a join was refused its name, before any suggestion is found.
struct NameRefusal: Equatable {
    let name: String
    /// "belongs to another player here", and the like.
    let because: String
}

/// The decision on a join's name and account, made on the loop with the match's state at that
/// moment: a name is its first owner's (by skeleton); a name the server keeps for what it hands
/// out (`ReservedNames`) goes only to that; nobody sits under a name someone else sits under in
/// that match (`sitting`); `limit` says why the record it would write may not be written now.
enum JoinDecision: Equatable {
    case admitted(SeatAdmission)
    case nameRefused(NameRefusal)
    case limited(WireError)

    init(_ name: String, identity: PlayerIdentity, claimant: NameClaimant, bot: Bool, lookup: JoinLookup,
         reserved: ReservedNames, sitting: (String) -> SeatHolder?, limit: (AccountRecordKind) -> WireError?) {
        guard reserved.allows(name, to: claimant) else {
            self = .nameRefused(NameRefusal(name: name, because: reserved.reason(name)))
            return
        }
        if let owner = lookup.owner, owner.identity != identity {
            self = .nameRefused(NameRefusal(name: name, because: "belongs to another player here"))
            return
        }
        if let alike = lookup.lookAlike, alike.identity != identity {
            self = .nameRefused(NameRefusal(name: name, because: "looks like \"\(alike.name)\", another player's name here"))
            return
        }
        let account = identity == .guest ? nil : lookup.account
        if let holder = sitting(name), holder != account.map({ .account(id: $0.id) }) {
            let whose = holder == .guest ? "is a guest's in that match" : "is another player's in that match"
            self = .nameRefused(NameRefusal(name: name, because: whose))
            return
        }
        guard identity != .guest else {
            self = .admitted(.guest)
            return
        }
        guard let account else {
            self = limit(.create).map(JoinDecision.limited) ?? .admitted(.creating(identity, name: name, bot: bot))
            return
        }
        guard account.name != name else {
            self = .admitted(.existing(account))
            return
        }
        self = limit(.rename(account: account.id)).map(JoinDecision.limited) ?? .admitted(.renaming(account, to: name))
    }
}

/// The write an admitted join makes before its seat is taken; runs on the accounts worker. An
/// identity another server gave an account meanwhile takes that account (renamed if it must).
enum AccountWrite {
    /// `charge`: what the record costs its address, network or account, for every node.
    static func perform(_ admission: SeatAdmission, wallSeconds: Int64, charging charge: RecordCharge,
                        in store: AccountStore) throws(StoreError) -> StoredAccount? {
        switch admission {
        case .guest: return nil
        case .existing(let account): return account
        case .renaming(let account, let name): return try store.rename(account.id, to: name, charging: charge)
        case .creating(let identity, let name, let bot):
            do {
                return try store.create(identity, name: name, bot: bot, wallSeconds: wallSeconds, charging: charge)
            } catch .identityTaken {
                guard let made = try store.account(for: identity) else { throw .unavailable("the identity's account cannot be read") }
                return made.name == name ? made : try store.rename(made.id, to: name)
            }
        }
    }
}

/// A free name like a refused one, found on the accounts worker: the name itself out of a
/// reserved shape, or with the first number that makes it free (no account owns it, nobody sits
/// under it in the match, it is not kept for another), shortened to fit when it must.
enum NameSuggestion {
    static func free(like name: String, for claimant: NameClaimant, reserved: ReservedNames, sitting: Set<String>,
                     in store: AccountStore) throws(StoreError) -> String {
        func isFree(_ candidate: String) throws(StoreError) -> Bool {
            guard !sitting.contains(PlayerName.skeleton(candidate)), reserved.allows(candidate, to: claimant) else { return false }
            guard try store.account(named: candidate) == nil else { return false }
            return try store.account(lookingLike: candidate) == nil
        }
        let stem = reserved.allows(name, to: claimant) ? name : reserved.unreserved(name)
        if stem != name, try isFree(stem) { return stem }
        for number in 2... {
            let suffix = String(number)
            let candidate = String(stem.prefix(ClientMessageDecoder.maxNameLength - suffix.count)).trimmingCharacters(in: .whitespaces) + suffix
            if try isFree(candidate) { return candidate }
        }
        return stem
    }

    /// The `name_taken` error a refusal is answered with.
    static func error(_ refusal: NameRefusal, suggestion: String) -> WireError {
        WireError(.nameTaken, "The name \"\(refusal.name)\" \(refusal.because); try \"\(suggestion)\".",
                  details: ["suggestion": .string(suggestion)])
    }
}
