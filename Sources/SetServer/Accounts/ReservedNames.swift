import SetWire

/// Who asks for a name, as far as the server can tell: names the server hands out go only to
/// what they name.
enum NameClaimant: Equatable {
    /// An ordinary client (TCP), whatever it says of itself.
    case client
    /// A keyless ssh player the door vouched for.
    case doorGuest
    /// An ssh player the door vouched for by its key.
    case doorKey(fingerprint: String)
    /// A house bot the door runs beside its player (`"bot":true` on its door line).
    case houseBot
}

/// The names the server (its ssh door) hands out, kept for what they name, compared by skeleton
/// so that a look-alike is kept too: `guest-…` for the door's keyless players and their bots,
/// `key-…` for the key whose door name it is, and, on a server with a door, the house bots'
/// `bot-easy`, `bot-normal`, `bot-hard` and `bot-instant`.
struct ReservedNames {
    /// Whether the server has an ssh door, whose house bots need their names.
    var houseBots: Bool

    /// What a name in one of the reserved shapes is kept for.
    enum Reservation: Equatable {
        case guests
        case key(skeleton: String)
        case houseBot
    }

    static let guestPrefix = "guest-"
    static let keyPrefix = "key-"
    /// One per bot level (`BotLevel` is the bots' module, which the server does not import;
    /// `HouseBotNameTests` holds the two together).
    static let houseBotNames: Set<String> = ["bot-easy", "bot-normal", "bot-hard", "bot-instant"]

    /// What `name` is kept for, if it is kept.
    func reservation(of name: String) -> Reservation? {
        let skeleton = PlayerName.skeleton(name)
        if skeleton.hasPrefix(Self.guestPrefix) { return .guests }
        if skeleton.hasPrefix(Self.keyPrefix) { return .key(skeleton: skeleton) }
        if houseBots && Self.houseBotNames.contains(skeleton) { return .houseBot }
        return nil
    }

    /// Whether `claimant` may take `name`.
    func allows(_ name: String, to claimant: NameClaimant) -> Bool {
        switch reservation(of: name) {
        case nil: true
        case .guests: claimant == .doorGuest || claimant == .houseBot
        case .key(let skeleton):
            if case .doorKey(let fingerprint) = claimant { PlayerName.skeleton(DoorAttestation.name(fingerprint: fingerprint)) == skeleton } else { false }
        case .houseBot: claimant == .houseBot
        }
    }

    /// A name like `name` in no reserved shape, for a suggestion: the reserved prefix loses its
    /// hyphen (`guest-4321` → `guest4321`).
    func unreserved(_ name: String) -> String {
        guard reservation(of: name) != nil else { return name }
        var scalars = name.unicodeScalars
        if let hyphen = scalars.firstIndex(where: { $0 == "-" || ConfusableLetters.latin[$0] == "-" }) { scalars.remove(at: hyphen) }
        let stem = String(scalars)
        // A shape no hyphen tells (a compatibility form of one): a plain name instead.
        return stem.isEmpty || reservation(of: stem) != nil ? "player" : stem
    }

    /// Why `claimant` may not take `name`, in a sentence.
    func reason(_ name: String) -> String {
        switch reservation(of: name) {
        case nil: "is free"
        case .guests: "is kept for the ssh door's guests"
        case .key: "is kept for the ssh key whose door name it is"
        case .houseBot: "is kept for the ssh door's house bot"
        }
    }
}
