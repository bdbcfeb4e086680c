/// The keys that pick cards on the table, by label slot (see `LabelBook` for which card holds
/// which slot). Up to 52 slots each get one key: 1–9, 0, then the lowercase letters that are not
/// command keys, then A–Z. More than 52 slots (only when nearly the whole deck is shown) switch
/// every card to two digits "11"…"99" (the first digit picks a group of nine), so no label is a
/// prefix of another and typing never has to wait to know which card is meant.
struct CardLabels: Hashable, Sendable {
    /// How many label slots are in use.
    let count: Int

    /// Lowercase keys that are commands (move h/j/k/l, Set! s, deal d, hint c, pass p, rematch r,
    /// quit q) and so never label a card.
    static let reservedLetters: Swift.Set<Character> = ["h", "j", "k", "l", "s", "d", "c", "p", "r", "q"]

    /// The single keys in the order cards get them.
    static let singleKeys: [Character] =
        Array("1234567890") + Array("abcdefghijklmnopqrstuvwxyz").filter { !reservedLetters.contains($0) }
            + Array("ABCDEFGHIJKLMNOPQRSTUVWXYZ")

    init(count: Int) {
        self.count = min(max(0, count), 81)
    }

    /// True when labels are two keys long.
    var usesTwoKeys: Bool { count > Self.singleKeys.count }

    /// The label of a card index, or nil when there is no such card.
    func label(for index: Int) -> String? {
        guard index >= 0, index < count else { return nil }
        guard usesTwoKeys else { return String(Self.singleKeys[index]) }
        return "\(index / 9 + 1)\(index % 9 + 1)"
    }

    /// What a label typed so far means.
    enum Match: Hashable, Sendable {
        /// Exactly one card.
        case card(Int)
        /// The start of a two-key label: wait for the next key.
        case partial
        /// No card.
        case none
    }

    /// Looks up keys typed so far.
    func match(_ typed: String) -> Match {
        let keys = Array(typed)
        if !usesTwoKeys {
            guard keys.count == 1, let index = Self.singleKeys.firstIndex(of: keys[0]), index < count else {
                return .none
            }
            return .card(index)
        }
        let digits = keys.compactMap { $0.wholeNumberValue }
        guard digits.count == keys.count, digits.allSatisfy({ (1...9).contains($0) }) else { return .none }
        switch digits.count {
        case 1: return (digits[0] - 1) * 9 < count ? .partial : .none
        case 2:
            let index = (digits[0] - 1) * 9 + digits[1] - 1
            return index < count ? .card(index) : .none
        default: return .none
        }
    }
}
