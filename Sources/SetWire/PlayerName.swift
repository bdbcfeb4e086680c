import Foundation

/// How player names compare and what makes one readable: two names are one when a reader would
/// take one for the other (Unicode TR39's "skeleton" idea), and a name must show something.
package enum PlayerName {
    /// What a name looks like, for comparing: compatibility forms folded (NFKC: fullwidth `ａ` is
    /// `a`), invisible characters dropped, look-alike letters of other scripts read as the Latin
    /// letter they pass for (`ConfusableLetters`), case folded. Names with equal skeletons are
    /// one name: `alice`, `Alice`, Cyrillic `аlice`, `ａｌｉｃｅ`, `ɑlice`, `alıce` and `ᴀlice`.
    package static func skeleton(_ name: String) -> String {
        // Nearly every name is ASCII, and ASCII holds no look-alike in the table: the accounts
        // log computes a skeleton per name at every start.
        if name.utf8.allSatisfy({ $0 < 0x80 }) { return name.lowercased() }
        let folded = mapped(name.precomposedStringWithCompatibilityMapping).lowercased()
        // Lowercasing can make a letter the table lists (an uppercase letter it does not).
        return mapped(folded)
    }

    /// A name as it is drawn, its case kept: the skeleton's folds of other scripts and
    /// compatibility forms, with `I`, `l` and `|`, which many fonts draw as the same stroke, drawn
    /// as one. Two names drawn alike with different skeletons (`alice` and `aIice`, `Ian` and
    /// `lan`) are kept apart by the store's look-alike check (`lookAlikeKey`), not by the skeleton:
    /// folding `I` to `l` there would part `McIntosh` from `mcintosh`, which are one name.
    package static func drawn(_ name: String) -> String {
        let base = name.utf8.allSatisfy({ $0 < 0x80 }) ? name : mapped(name.precomposedStringWithCompatibilityMapping)
        return String(String.UnicodeScalarView(base.unicodeScalars.map { strokes.contains($0) ? "l" : $0 }))
    }

    /// Whether two names are drawn alike (`drawn`).
    package static func drawnAlike(_ name: String, _ other: String) -> Bool {
        drawn(name) == drawn(other)
    }

    /// The key the store finds names drawn like `name` by: its skeleton with `l` and `|` read as
    /// `i` (the skeleton has already made `I` an `i`), so every name drawn alike shares it; nil
    /// when the name has no such stroke, and so no look-alike whose skeleton differs from its own.
    /// The store's index computes the same with SQL's `replace` (`LookAlikeNames`).
    package static func lookAlikeKey(_ name: String) -> String? {
        guard drawn(name).unicodeScalars.contains("l") else { return nil }
        return String(String.UnicodeScalarView(skeleton(name).unicodeScalars.map { $0 == "l" || $0 == "|" ? "i" : $0 }))
    }

    /// Capital I, small L and the vertical bar.
    private static let strokes: Set<Unicode.Scalar> = ["I", "l", "|"]

    private static func mapped(_ text: String) -> String {
        var scalars = String.UnicodeScalarView()
        for scalar in text.unicodeScalars where !scalar.properties.isDefaultIgnorableCodePoint {
            // A dot above an i or a j draws on the dot it has: `i` + U+0307 is `i` to a reader.
            if scalar == dotAbove, let last = scalars.last, last == "i" || last == "j" || last == "I" || last == "J" { continue }
            scalars.append(ConfusableLetters.letter(for: scalar) ?? scalar)
        }
        return String(scalars)
    }

    /// U+0307 COMBINING DOT ABOVE.
    private static let dotAbove: Unicode.Scalar = "\u{0307}"

    /// Whether a name shows something and hides nothing: it holds at least one letter, digit,
    /// punctuation mark or symbol that draws, no default-ignorable character (Hangul fillers,
    /// variation selectors, …), which draw nothing, or a blank, but make a name look like another,
    /// and no combining mark past `ServerText.maxMarks` on one character or before any.
    package static func isVisible(_ name: String) -> Bool {
        // Nothing the one sanitiser would change (marks piled past its cap, or one with nothing
        // under it): shown cut, two such names could look alike.
        guard ServerText.printable(name) == name else { return false }
        var showsSomething = false
        for scalar in name.unicodeScalars {
            let properties = scalar.properties
            if properties.isDefaultIgnorableCodePoint { return false }
            if scalar != VisibleText.blankBraille && shown.contains(properties.generalCategory) { showsSomething = true }
        }
        return showsSomething
    }

    private static let shown: Set<Unicode.GeneralCategory> = [
        .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter,
        .decimalNumber, .letterNumber, .otherNumber,
        .connectorPunctuation, .dashPunctuation, .openPunctuation, .closePunctuation, .initialPunctuation, .finalPunctuation,
        .otherPunctuation, .mathSymbol, .currencySymbol, .modifierSymbol, .otherSymbol,
    ]
}
