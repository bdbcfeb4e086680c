// Shared by the screen, which lays text out by it, and the server, which measures chat lines by it.
/// How many terminal cells text takes, as terminals draw it: East Asian wide and fullwidth
/// characters and emoji take two, combining marks and other zero-width characters none, the rest
/// one. Names and match names come from other people, so the layout measures by this, never by
/// `count`.
package enum DisplayWidth {
    /// The cells one scalar takes on its own: 0, 1 or 2.
    package static func of(_ scalar: Unicode.Scalar) -> Int {
        let value = scalar.value
        if value == 0 { return 0 }
        if value < 0x20 || (0x7F...0x9F).contains(value) { return 0 }
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format: return 0
        default: break
        }
        // Hangul jamo vowels and finals join the syllable before them.
        if (0x1160...0x11FF).contains(value) { return 0 }
        if scalar.properties.isEmojiPresentation { return 2 }
        return wideRanges.contains { $0.contains(value) } ? 2 : 1
    }

    /// The cells one character (a grapheme cluster) takes, as tmux 3.3a draws it: an emoji
    /// (asked for with U+FE0F, a flag, a ZWJ sequence) two, and two more for each skin tone
    /// after it (👍🏽 is drawn four wide: the tone is not joined); anything else the sum of its
    /// scalars, so a spacing vowel sign takes its own column (का is two wide, as terminals draw
    /// it, where counting the cluster once said one and let a line of them wrap).
    package static func of(_ character: Character) -> Int {
        var emoji = false, tones = 0, sum = 0
        for scalar in character.unicodeScalars {
            if scalar.properties.isEmojiModifier {
                tones += 1
                continue
            }
            if scalar.value == 0xFE0F || scalar.properties.isEmojiPresentation { emoji = true }
            sum += of(scalar)
        }
        return (emoji ? 2 : sum) + 2 * tones
    }

    /// The cells a string takes.
    package static func of(_ text: some StringProtocol) -> Int {
        text.reduce(0) { $0 + of($1) }
    }

    /// The longest start of `text` that fits in `cells` cells; a wide character that would be cut
    /// in half is left out whole.
    package static func prefix(_ text: some StringProtocol, cells: Int) -> String {
        var result = "", used = 0
        for character in text {
            let width = of(character)
            if used + width > cells { break }
            result.append(character)
            used += width
        }
        return result
    }

    /// Blocks of East Asian Wide (W) and Fullwidth (F) characters, from Unicode's EastAsianWidth.txt.
    package static let wideRanges: [ClosedRange<UInt32>] = [
        0x1100...0x115F, 0x231A...0x231B, 0x2329...0x232A, 0x2E80...0x303E, 0x3041...0x33FF,
        0x3400...0x4DBF, 0x4E00...0x9FFF, 0xA000...0xA4CF, 0xA960...0xA97F, 0xAC00...0xD7A3,
        0xF900...0xFAFF, 0xFE10...0xFE19, 0xFE30...0xFE6F, 0xFF00...0xFF60, 0xFFE0...0xFFE6,
        0x1F300...0x1F64F, 0x1F900...0x1F9FF, 0x20000...0x2FFFD, 0x30000...0x3FFFD,
    ]
}

extension StringProtocol {
    /// The number of terminal cells the text takes; see `DisplayWidth`.
    package var displayWidth: Int { DisplayWidth.of(self) }
}
