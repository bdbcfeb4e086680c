/// Text from elsewhere (the server, another player, a journal) made safe to print on a terminal:
/// nothing it contains can move the cursor, recolour or clear the screen, set the window title
/// (OSC 2), write the clipboard (OSC 52), reorder what is shown around it, or take a width on
/// screen other than the one `DisplayWidth` counts. The client, the bot, `replay` and the
/// server's journal checks all print such text through this one function.
package enum ServerText {
    /// `text` with every C0 and C1 control, DEL and format character (`VisibleText.isFormat`:
    /// bidirectional overrides, zero-width and soft-hyphen characters and the like) removed,
    /// except a zero-width joiner after an emoji, which joins an emoji sequence (👩‍👩‍👧);
    /// tabs and line breaks (U+2028 and U+2029 too) become spaces so a message stays on its
    /// line. Combining marks stack on the character before them: past `maxMarks` on one, and any
    /// with no character before them, are dropped, so a pile of accents cannot spill over the
    /// lines above and below. Longer than `limit` characters, it is cut and ends in "…".
    package static func printable(_ text: some StringProtocol, limit: Int = .max) -> String {
        var result = String.UnicodeScalarView()
        var count = 0
        var afterEmoji = false
        var marks: Int?  // on the character before; nil before the first
        for scalar in text.unicodeScalars {
            guard count < limit else {
                result.append("…")
                break
            }
            if scalar == "\t" || scalar == "\n" || scalar == "\r" || scalar == "\u{2028}" || scalar == "\u{2029}" {
                result.append(" ")
                marks = 0
            } else if scalar == VisibleText.zeroWidthJoiner ? afterEmoji : isAllowed(scalar) {
                if isMark(scalar) {
                    guard let stacked = marks, stacked < maxMarks else { continue }
                    marks = stacked + 1
                } else {
                    marks = 0
                }
                result.append(scalar)
            } else {
                continue
            }
            afterEmoji = VisibleText.endsEmoji(scalar)
            count += 1
        }
        return String(result)
    }

    /// The most combining marks kept on one character: enough for Vietnamese, Thai or pointed
    /// Hebrew, far from the hundreds of a "zalgo" line.
    package static let maxMarks = 4

    /// Whether a scalar is a combining mark that draws on the character before it (Mn, Me).
    static func isMark(_ scalar: Unicode.Scalar) -> Bool {
        let category = scalar.properties.generalCategory
        return category == .nonspacingMark || category == .enclosingMark
    }

    /// Whether a scalar may reach the terminal (a zero-width joiner only after an emoji).
    package static func isAllowed(_ scalar: Unicode.Scalar) -> Bool {
        let value = scalar.value
        if value < 0x20 || (0x7F...0x9F).contains(value) { return false }
        // Format characters include the bidirectional controls, which make text show in another
        // order than it is read, and the invisible ones whose width terminals disagree on.
        return !VisibleText.isFormat(scalar) || scalar == VisibleText.zeroWidthJoiner
    }
}
