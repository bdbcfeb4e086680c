/// The rules in plain words, with the timings and points of the given settings, in lines of at
/// most 80 columns (`width`), the terminal most people open.
package enum RulesText {
    /// The longest line the text has.
    package static let width = 80

    /// The rules; a variant other than the classic game opens with its own deck and deal and adds
    /// its own section at the end.
    package static func render(_ settings: RuleSettings = .standard, variant: Variant, seatWaitMs: Int64 = 120_000) -> String {
        let classic = render(settings, seatWaitMs: seatWaitMs, deck: variant)
        guard variant != .classic else { return classic }
        return classic + """


        VARIANT: \(variant.title.uppercased())
        \(wrapped(variant.summary, width: width, indent: "  "))
          The timings, points and penalties above apply to its \(variant.pickWord)s:
          \(variant.pickCountWord) cards a pick, \(variant.tableSize) cards dealt and refilled to.
        """
    }

    /// Words of `text` on lines of at most `width` characters, each after `indent`.
    package static func wrapped(_ text: String, width: Int, indent: String = "") -> String {
        var lines: [String] = [], line = ""
        for word in text.split(separator: " ") {
            if !line.isEmpty && indent.count + line.count + 1 + word.count > width {
                lines.append(indent + line)
                line = ""
            }
            line += line.isEmpty ? String(word) : " " + word
        }
        if !line.isEmpty { lines.append(indent + line) }
        return lines.joined(separator: "\n")
    }

    /// `seatWaitMs`: how long in all a seat may be away during a game (a server setting).
    package static func render(_ settings: RuleSettings = .standard, seatWaitMs: Int64 = 120_000) -> String {
        render(settings, seatWaitMs: seatWaitMs, deck: .classic)
    }

    /// The values of each feature that `variant`'s deck holds: "solid, striped or open", or
    /// "solid (every card)" where the deck keeps only one.
    static func values<Value: CaseIterable & Equatable>(_ all: Value.AllCases, in deck: [Card], _ feature: (Card) -> Value,
                                                        _ word: (Value) -> String) -> String {
        let held = all.filter { value in deck.contains { feature($0) == value } }
        guard held.count > 1 else { return held.first.map { "\(word($0)) (every card)" } ?? "" }
        return held.dropLast().map(word).joined(separator: ", ") + " or " + word(held[held.count - 1])
    }

    /// The text, opening with the deck and the deal of `deck`'s variant.
    static func render(_ settings: RuleSettings, seatWaitMs: Int64, deck variant: Variant) -> String {
        let cards = variant.cards
        let dealt = variant.tableSize
        let varying = [Set<Number>(cards.map(\.number)).count, Set<Shape>(cards.map(\.shape)).count,
                       Set<Shading>(cards.map(\.shading)).count, Set<Colour>(cards.map(\.colour)).count].filter { $0 > 1 }.count
        let featureWord = ["no", "one", "two", "three", "four"][varying]
        func seconds(_ ms: Int64) -> String {
            ms % 1000 == 0 ? "\(ms / 1000) s" : "\(Double(ms) / 1000) s"
        }
        let s = settings
        let decaySeconds = s.setPointsLostPerSecond > 0
            ? (s.setPointsMax - s.setPointsMin + s.setPointsLostPerSecond - 1) / s.setPointsLostPerSecond : 0
        return """
        SET

        The deck has \(cards.count) cards; each has \(featureWord) features that vary, three values each:
          number   \(values(Number.allCases, in: cards, \.number) { "\($0.count)" }) symbols
          shape    \(values(Shape.allCases, in: cards, \.shape) { "\($0)" })
          shading  \(values(Shading.allCases, in: cards, \.shading) { "\($0)" })
          colour   \(values(Colour.allCases, in: cards, \.colour) { "\($0)" })
        Three cards form a set when, for every feature, the three cards are all the
        same or all different. Example: 1 solid red oval, 2 solid green squiggles,
        3 solid purple diamonds.

        \(dealt) cards are dealt. Find sets; a taken set is replaced from the deck while
        fewer than \(dealt) cards would remain. When you see no set, deal 3 more. The game
        ends when the deck is empty and no set is left on the table.

        SCORING
          A set is worth \(s.setPointsMax) points if taken the moment the table changed, \(s.setPointsLostPerSecond) less for
          each second the table stood, and never less than \(s.setPointsMin) (reached after \(decaySeconds) s).
          Three cards that are not a set:        -\(s.wrongSetPenalty)
          Dealing while a set was on the table:  -\(s.dealPenalty)
          A hint (shows one set):                -\(s.hintCost)\(s.hintsInDuel ? "" : " (solo only; off in duels)")

        SOLO
          Select up to three cards; touching a selected card deselects it. The third
          card is judged at once and the trio shows as a match or a mismatch; your next
          touch (or a deal) clears it, taking a matched trio off the table.

        DUEL
          Call "Set!" to win a claim window of \(seconds(s.claimWindowMs)): only you may select, and your
          opponent sees every card you pick. A second "Set!" in that time is refused
          and told by how many milliseconds it lost.
          The third card decides at once. A set scores and the cards are taken. Not a
          set (-\(s.wrongSetPenalty)), or the window runs out or is passed (-\(s.claimTimeoutPenalty)): your opponent gets a
          second chance of \(seconds(s.secondChanceMs)) to select without calling "Set!".
          Either player may deal 3 more outside the other's window. After a deal the
          other player has a grace period of \(seconds(s.dealGraceMs)) to pick a set; a wrong trio then
          costs nothing. A window holder may pass to end it early.
          Resigning loses the match. Otherwise the higher score wins; equal scores tie.
          A rematch starts when both players ask for one.

        LEAVING
          A player who drops out while holding a window loses it at once, exactly as
          if they had passed it; the match pauses until they are back. Each player may
          be away for \(seconds(seatWaitMs)) in all during one game, however often they come back; past
          that the game is forfeited.
        """
    }
}
