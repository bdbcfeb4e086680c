/// The few words everyone says at every game: a player says "gg" after each one, and a house
/// bot does too, so these may be said again at any time (lila lets such a list through its
/// flood rule). They still count against the person's lines per window.
enum StockPhrase {
    /// The phrases, folded (`VisibleText.folded`), without closing punctuation.
    static let all: Set<String> = [
        "gg", "gl", "hf", "wp", "ty", "np", "yw", "gl hf", "glhf", "gg wp", "ggwp", "good game",
        "well played", "good luck", "have fun", "thanks", "thank you", "thx", "you too", "nice",
        "hi", "hello", "bye", "oops", "rematch",
    ]

    /// Whether a folded line is a stock phrase, with or without "!", "." or "?" after it.
    static func isStock(_ folded: String) -> Bool {
        var bare = Substring(folded)
        while let last = bare.last, "!.? ".contains(last) { bare.removeLast() }
        return all.contains(String(bare))
    }
}
