/// The rules in plain words, with the timings and points of the given settings.
package enum RulesText {
    /// The rules; a variant other than the classic game adds its own section at the end.
    package static func render(_ settings: RuleSettings = .standard, variant: Variant, seatWaitMs: Int64 = 120_000) -> String {
        let classic = render(settings, seatWaitMs: seatWaitMs)
        guard variant != .classic else { return classic }
        return classic + """


        VARIANT: \(variant.title.uppercased())
        \(wrapped(variant.summary, width: 96, indent: "  "))
          The timings, points and penalties above apply to its \(variant.pickWord)s: \(variant.pickCountWord) cards a pick,
          \(variant.tableSize) cards dealt and refilled to.
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
        func seconds(_ ms: Int64) -> String {
            ms % 1000 == 0 ? "\(ms / 1000) s" : "\(Double(ms) / 1000) s"
        }
        let s = settings
        let decaySeconds = s.setPointsLostPerSecond > 0
            ? (s.setPointsMax - s.setPointsMin + s.setPointsLostPerSecond - 1) / s.setPointsLostPerSecond : 0
        return """
        SET

        The deck has 81 cards. Each card has four features, each with three values:
          number   1, 2 or 3 symbols
          shape    diamond, squiggle or oval
          shading  solid, striped or open
          colour   red, green or purple
        Three cards form a set when, for every feature, the three cards are all the same or all
        different. Example: 1 solid red oval, 2 striped red squiggles, 3 open red diamonds.

        12 cards are dealt. Find sets; a taken set is replaced from the deck while fewer than 12
        cards would remain. When you see no set, deal 3 more. The game ends when the deck is empty
        and no set is left on the table.

        SCORING
          A set is worth \(s.setPointsMax) points if taken the moment the table changed, \(s.setPointsLostPerSecond)
          less for each second the table stood, and never less than \(s.setPointsMin) (reached after \(decaySeconds) s).
          Three cards that are not a set:        -\(s.wrongSetPenalty)
          Dealing while a set was on the table:  -\(s.dealPenalty)
          A hint (shows one set):                -\(s.hintCost)\(s.hintsInDuel ? "" : " (solo only; off in duels)")

        SOLO
          Select up to three cards; touching a selected card deselects it. The third card is judged
          at once and the trio shows as a match or a mismatch; your next touch (or a deal) clears it,
          taking a matched trio off the table.

        DUEL
          Call "Set!" to win a claim window of \(seconds(s.claimWindowMs)): only you may select, and
          your opponent sees every card you pick. A second "Set!" in that time is refused and told by how
          many milliseconds it lost.
          The third card decides at once. A set scores and the cards are taken. Not a set (-\(s.wrongSetPenalty)),
          or the window runs out or is passed (-\(s.claimTimeoutPenalty)): your opponent gets a
          second chance of \(seconds(s.secondChanceMs)) to select without calling "Set!".
          Either player may deal 3 more outside the other's window. After a deal the other player
          has a grace period of \(seconds(s.dealGraceMs)) to pick a set; a wrong trio then costs nothing.
          A window holder may pass to end it early.
          Resigning loses the match. Otherwise the higher score wins; equal scores tie. A rematch
          starts when both players ask for one.

        LEAVING
          A player who drops out while holding a window loses it at once, exactly as if they had
          passed it; the match pauses until they are back. Each player may be away for \(seconds(seatWaitMs))
          in all during one game, however often they come back; past that the game is forfeited.
        """
    }
}
