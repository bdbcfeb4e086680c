/// Letters of other scripts (and Latin's own small capitals and IPA letters) that a reader takes
/// for a Latin letter: the part of Unicode TR39's confusables table that names may hold, as data.
/// Lisu is nearly all Latin capitals; Cherokee and Coptic lend several (Cherokee's small letters
/// read as its capitals: `letter(for:)`).
/// Fullwidth and other compatibility forms are not listed: NFKC folds them before this is read,
/// so only characters NFKC leaves as they are may be listed.
/// Digits and Latin letters are never mapped to each other (`0`/`O`, `1`/`l`): a terminal's
/// monospaced font tells them apart, and names like `bob1` must stay distinct from `bobl`.
package enum ConfusableLetters {
    /// Each Latin letter (and the hyphen) and what passes for it, upper and lower case alike.
    package static let table: [(latin: Unicode.Scalar, lookAlikes: String)] = [
        ("a", "\u{0430}\u{0410}\u{0251}\u{03B1}\u{0391}\u{1D00}\u{237A}\u{A4EE}\u{13AA}\u{2C81}"), // а А ɑ α Α ᴀ ⍺ ꓮ Ꭺ ⲁ
        ("b", "\u{0412}\u{0432}\u{0392}\u{0299}\u{042C}\u{0184}\u{A4D0}\u{13F4}\u{13CF}\u{2C82}"), // В в Β ʙ Ь Ƅ ꓐ Ᏼ Ꮟ Ⲃ
        ("c", "\u{0441}\u{0421}\u{03C2}\u{1D04}\u{A4DA}\u{13DF}\u{2CA5}"), // с С ς ᴄ ꓚ Ꮯ ⲥ (NFKC makes lunate ϲ ς)
        ("d", "\u{0501}\u{1D05}\u{13A0}\u{A4D3}\u{A4D2}"), // ԁ ᴅ Ꭰ ꓓ ꓒ
        ("e", "\u{0435}\u{0415}\u{0395}\u{1D07}\u{A4F0}\u{13AC}\u{2C88}"), // е Е Ε ᴇ ꓰ Ꭼ Ⲉ
        ("f", "\u{A730}\u{03DC}\u{A4DD}"), // ꜰ Ϝ ꓝ
        ("g", "\u{0261}\u{0262}\u{050D}\u{050C}\u{0581}\u{A4D6}\u{13C0}"), // ɡ ɢ ԍ Ԍ ց ꓖ Ꮐ
        ("h", "\u{04BB}\u{04BA}\u{041D}\u{043D}\u{0397}\u{029C}\u{0570}\u{A4E7}\u{13BB}\u{13C2}\u{2C8E}"), // һ Һ Н н Η ʜ հ ꓧ Ꮋ Ꮒ Ⲏ
        ("i", "\u{0456}\u{0406}\u{0131}\u{026A}\u{03B9}\u{0399}\u{04C0}\u{0130}\u{0269}\u{13A5}\u{A4F2}\u{2C92}"), // і І ı ɪ ι Ι Ӏ İ ɩ Ꭵ ꓲ Ⲓ
        ("j", "\u{0458}\u{0408}\u{1D0A}\u{03F3}\u{A4D9}\u{13AB}"), // ј Ј ᴊ ϳ ꓙ Ꭻ
        ("k", "\u{043A}\u{041A}\u{039A}\u{03BA}\u{1D0B}\u{0138}\u{A4D7}\u{13E6}\u{2C94}"), // к К Κ κ ᴋ ĸ ꓗ Ꮶ Ⲕ
        ("l", "\u{04CF}\u{029F}\u{01C0}\u{13DE}\u{A4E1}"), // ӏ ʟ ǀ Ꮮ ꓡ
        ("m", "\u{043C}\u{041C}\u{039C}\u{1D0D}\u{A4DF}\u{13B7}\u{2C98}"), // м М Μ ᴍ ꓟ Ꮇ Ⲙ
        ("n", "\u{0578}\u{0274}\u{039D}\u{03B7}\u{A4E0}\u{2C9A}"), // ո ɴ Ν η ꓠ Ⲛ
        ("o", "\u{043E}\u{041E}\u{03BF}\u{039F}\u{1D0F}\u{0585}\u{0555}\u{A4F3}\u{2C9F}"), // о О ο Ο ᴏ օ Օ ꓳ ⲟ
        ("p", "\u{0440}\u{0420}\u{03C1}\u{03A1}\u{1D18}\u{2374}\u{A4D1}\u{13E2}\u{2CA3}"), // р Р ρ Ρ ᴘ ⍴ ꓑ Ꮲ ⲣ
        ("q", "\u{051B}\u{051A}\u{0566}"),                                          // ԛ Ԛ զ
        ("r", "\u{0280}\u{0433}\u{13A1}\u{A4E3}\u{13D2}"), // ʀ г Ꭱ ꓣ Ꮢ
        ("s", "\u{0455}\u{0405}\u{A731}\u{13DA}\u{A4E2}\u{13D5}"), // ѕ Ѕ ꜱ Ꮪ ꓢ Ꮥ
        ("t", "\u{0442}\u{0422}\u{03A4}\u{03C4}\u{1D1B}\u{A4D4}\u{13A2}\u{2CA6}"), // т Т Τ τ ᴛ ꓔ Ꭲ Ⲧ
        ("u", "\u{03C5}\u{057D}\u{1D1C}\u{028B}\u{A4F4}"), // υ ս ᴜ ʋ ꓴ
        ("v", "\u{03BD}\u{0475}\u{0474}\u{1D20}\u{A4E6}\u{13D9}"), // ν ѵ Ѵ ᴠ ꓦ Ꮩ
        ("w", "\u{051D}\u{051C}\u{1D21}\u{0461}\u{A4EA}\u{13B3}\u{13D4}"), // ԝ Ԝ ᴡ ѡ ꓪ Ꮃ Ꮤ
        ("x", "\u{0445}\u{0425}\u{03A7}\u{03C7}\u{A4EB}\u{2CAD}"), // х Х Χ χ ꓫ ⲭ
        ("y", "\u{0443}\u{0423}\u{03A5}\u{04AF}\u{04AE}\u{028F}\u{03B3}\u{A4EC}\u{13A9}\u{13BD}\u{2CA9}"), // у У Υ ү Ү ʏ γ ꓬ Ꭹ Ꮍ ⲩ
        ("z", "\u{0396}\u{1D22}\u{A4DC}\u{13C3}\u{2C8C}"), // Ζ ᴢ ꓜ Ꮓ Ⲍ
        // Reserved names are told by their hyphen (`guest-…`), so its look-alikes are one too.
        ("-", "\u{2010}\u{2012}\u{2013}\u{2043}\u{2212}\u{02D7}"),                 // ‐ ‒ – ⁃ − ˗
    ]

    /// The Latin letter `scalar` passes for, if it passes for one. Cherokee's small letters
    /// (Unicode 8) are drawn as its capitals, and read as they do; other scripts' cases can look
    /// unlike each other (Η and η), so their letters are listed one by one.
    package static func letter(for scalar: Unicode.Scalar) -> Unicode.Scalar? {
        if let letter = latin[scalar] { return letter }
        guard (0xAB70...0xABBF).contains(scalar.value) || (0x13F8...0x13FD).contains(scalar.value),
              let capital = scalar.properties.uppercaseMapping.unicodeScalars.first else { return nil }
        return latin[capital]
    }

    /// The table as a lookup: each look-alike to its Latin letter.
    package static let latin: [Unicode.Scalar: Unicode.Scalar] = {
        var map: [Unicode.Scalar: Unicode.Scalar] = [:]
        for (letter, lookAlikes) in table {
            for scalar in lookAlikes.unicodeScalars { map[scalar] = letter }
        }
        return map
    }()
}
