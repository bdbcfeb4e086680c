import Foundation

/// What a reader can see of text: which characters show nothing, and the form in which two lines
/// read as the same. Chat (an empty line, a repeated one) and names (a blank name) ask the same
/// questions, so they share these answers with every client.
package enum VisibleText {
    /// Whether a scalar is a format character (Unicode category Cf: soft hyphen, zero-width space,
    /// joiners, word joiner, byte-order mark, bidirectional controls, Arabic number signs, tags).
    /// Terminals disagree on their width (tmux draws U+0600 and U+00AD one column each, most
    /// draw U+200B none), so no width function can predict them: `ServerText.printable` removes
    /// them (all but a joiner inside an emoji sequence), and nothing from elsewhere reaches a
    /// terminal or a width count with one in it. Names refuse them outright.
    package static func isFormat(_ scalar: Unicode.Scalar) -> Bool {
        scalar.properties.generalCategory == .format
    }

    /// U+200D, the one format character kept: it joins emoji into one (👩‍👩‍👧, two columns in
    /// tmux as `DisplayWidth` counts it), and no terminal draws it on its own.
    package static let zeroWidthJoiner: Unicode.Scalar = "\u{200D}"

    /// Whether a zero-width joiner after this scalar joins an emoji sequence: it is an emoji
    /// beyond Latin-1 (not a digit, `#` or `©`), a skin tone, or the emoji variation selector.
    package static func endsEmoji(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value == 0xFE0F || (scalar.properties.isEmoji && scalar.value > 0xFF)
    }

    /// Whether a scalar shows nothing by itself: white space, a code point Unicode asks renderers
    /// to ignore when unsupported (format characters, variation selectors, the combining grapheme
    /// joiner, Hangul fillers), or the braille cell with no dots.
    package static func isBlank(_ scalar: Unicode.Scalar) -> Bool {
        scalar.properties.isWhitespace || scalar.properties.isDefaultIgnorableCodePoint || scalar == blankBraille
    }

    /// U+2800, a braille cell with no dots: a symbol (not white space) that draws as a blank.
    package static let blankBraille: Unicode.Scalar = "\u{2800}"


    /// Whether a character (a grapheme cluster) shows nothing: all its scalars are blank.
    package static func isBlank(_ character: Character) -> Bool {
        character.unicodeScalars.allSatisfy(isBlank)
    }

    /// Whether `text` holds anything a reader can see.
    package static func hasVisible(_ text: some StringProtocol) -> Bool {
        !text.allSatisfy(isBlank)
    }

    /// The form in which two lines read as the same line: code points that show nothing removed
    /// (`g\u{200B}g` is `gg`), compatibility forms folded by NFKC (fullwidth `ＧＧ`, the ligature
    /// `ﬁ`), lower case, runs of white space made one space, the ends trimmed.
    package static func folded(_ text: some StringProtocol) -> String {
        var kept = String.UnicodeScalarView()
        for scalar in text.unicodeScalars where !scalar.properties.isDefaultIgnorableCodePoint {
            kept.append(scalar)
        }
        let folded = String(kept).precomposedStringWithCompatibilityMapping.lowercased()
        return folded.split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }
}
