/// Letters of other scripts (and Latin's own small capitals and IPA letters) that a reader takes
/// for a Latin letter: the part of Unicode TR39's confusables table that names may hold, as data.
/// Fullwidth and other compatibility forms are not listed: NFKC folds them before this is read,
/// so only characters NFKC leaves as they are may be listed.
/// Digits and Latin letters are never mapped to each other (`0`/`O`, `1`/`l`): a terminal's
/// monospaced font tells them apart, and names like `bob1` must stay distinct from `bobl`.
package enum ConfusableLetters {
    /// Each Latin letter (and the hyphen) and what passes for it, upper and lower case alike.
    package static let table: [(latin: Unicode.Scalar, lookAlikes: String)] = [
        ("a", "\u{0430}\u{0410}\u{0251}\u{03B1}\u{0391}\u{1D00}\u{237A}"),          // а А ɑ α Α ᴀ ⍺
        ("b", "\u{0412}\u{0432}\u{0392}\u{0299}\u{042C}\u{0184}"),                  // В в Β ʙ Ь Ƅ
        ("c", "\u{0441}\u{0421}\u{03C2}\u{1D04}"),                                  // с С ς ᴄ (NFKC makes lunate ϲ ς)
        ("d", "\u{0501}\u{1D05}\u{13A0}"),                                          // ԁ ᴅ Ꭰ
        ("e", "\u{0435}\u{0415}\u{0395}\u{1D07}"),                                  // е Е Ε ᴇ
        ("f", "\u{A730}\u{03DC}"),                                                  // ꜰ Ϝ
        ("g", "\u{0261}\u{0262}\u{050D}\u{050C}\u{0581}"),                          // ɡ ɢ ԍ Ԍ ց
        ("h", "\u{04BB}\u{04BA}\u{041D}\u{043D}\u{0397}\u{029C}\u{0570}"),          // һ Һ Н н Η ʜ հ
        ("i", "\u{0456}\u{0406}\u{0131}\u{026A}\u{03B9}\u{0399}\u{04C0}\u{0130}\u{0269}\u{13A5}"), // і І ı ɪ ι Ι Ӏ İ ɩ Ꭵ
        ("j", "\u{0458}\u{0408}\u{1D0A}\u{03F3}"),                                  // ј Ј ᴊ ϳ
        ("k", "\u{043A}\u{041A}\u{039A}\u{03BA}\u{1D0B}\u{0138}"),                  // к К Κ κ ᴋ ĸ
        ("l", "\u{04CF}\u{029F}\u{01C0}\u{13DE}"),                                  // ӏ ʟ ǀ Ꮮ
        ("m", "\u{043C}\u{041C}\u{039C}\u{1D0D}"),                                  // м М Μ ᴍ
        ("n", "\u{0578}\u{0274}\u{039D}\u{03B7}"),                                  // ո ɴ Ν η
        ("o", "\u{043E}\u{041E}\u{03BF}\u{039F}\u{1D0F}\u{0585}\u{0555}"),          // о О ο Ο ᴏ օ Օ
        ("p", "\u{0440}\u{0420}\u{03C1}\u{03A1}\u{1D18}\u{2374}"),                  // р Р ρ Ρ ᴘ ⍴
        ("q", "\u{051B}\u{051A}\u{0566}"),                                          // ԛ Ԛ զ
        ("r", "\u{0280}\u{0433}\u{13A1}"),                                          // ʀ г Ꭱ
        ("s", "\u{0455}\u{0405}\u{A731}\u{13DA}"),                                  // ѕ Ѕ ꜱ Ꮪ
        ("t", "\u{0442}\u{0422}\u{03A4}\u{03C4}\u{1D1B}"),                          // т Т Τ τ ᴛ
        ("u", "\u{03C5}\u{057D}\u{1D1C}\u{028B}"),                                  // υ ս ᴜ ʋ
        ("v", "\u{03BD}\u{0475}\u{0474}\u{1D20}"),                                  // ν ѵ Ѵ ᴠ
        ("w", "\u{051D}\u{051C}\u{1D21}\u{0461}"),                                  // ԝ Ԝ ᴡ ѡ
        ("x", "\u{0445}\u{0425}\u{03A7}\u{03C7}"),                                  // х Х Χ χ
        ("y", "\u{0443}\u{0423}\u{03A5}\u{04AF}\u{04AE}\u{028F}\u{03B3}"),          // у У Υ ү Ү ʏ γ
        ("z", "\u{0396}\u{1D22}"),                                                  // Ζ ᴢ
        // Reserved names are told by their hyphen (`guest-…`), so its look-alikes are one too.
        ("-", "\u{2010}\u{2012}\u{2013}\u{2043}\u{2212}\u{02D7}"),                 // ‐ ‒ – ⁃ − ˗
    ]

    /// The table as a lookup: each look-alike to its Latin letter.
    package static let latin: [Unicode.Scalar: Unicode.Scalar] = {
        var map: [Unicode.Scalar: Unicode.Scalar] = [:]
        for (letter, lookAlikes) in table {
            for scalar in lookAlikes.unicodeScalars { map[scalar] = letter }
        }
        return map
    }()
}
