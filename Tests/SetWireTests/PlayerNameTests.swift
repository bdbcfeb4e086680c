import Foundation
import Testing
@testable import SetWire

/// Issue 32, item 4: names that look alike are one name, and a name must show something.
struct PlayerNameTests {
    @Test func theIssuesLookAlikesAreAlice() {
        for name in ["alice", "Alice", "ALICE", "\u{0430}lice", "\u{FF41}\u{FF4C}\u{FF49}\u{FF43}\u{FF45}", "\u{0251}lice",
                     "al\u{0131}ce", "\u{1D00}lice", "\u{0410}LICE", "\u{FF21}\u{FF2C}\u{FF29}\u{FF23}\u{FF25}"] {
            #expect(PlayerName.skeleton(name) == "alice", "\(name.unicodeScalars.map { String($0.value, radix: 16) })")
        }
    }

    /// A hostile audit's names (Lisu, Cherokee in both its cases, Coptic) read as the names they
    /// pass for.
    @Test func lisuCherokeeAndCopticLookAlikesAreTheNamesTheyPassFor() {
        let names = ["\u{A4EE}\u{A4E1}\u{A4F2}\u{A4DA}\u{A4F0}": "alice", "\u{13AA}lice": "alice", "\u{AB7A}lice": "alice",
                     "\u{2C81}lice": "alice", "\u{13F4}ob": "bob", "\u{A4D4}om": "tom", "to\u{13B7}": "tom", "\u{13E6}ate": "kate",
                     "\u{A4D7}ate": "kate", "\u{13B3}ave": "wave", "\u{A4EA}ave": "wave", "\u{13A2}om": "tom"]
        for (name, reads) in names {
            #expect(PlayerName.skeleton(name) == reads, "\(name.unicodeScalars.map { String($0.value, radix: 16) })")
        }
    }

    /// A dot above on an i or a j draws on the dot it has: `ali̇ce` (i + U+0307) read as alice in a
    /// terminal. On other letters it is a letter of its own (Lithuanian ė).
    @Test func aDotAboveAnIOrAJIsNothing() {
        #expect(PlayerName.skeleton("ali\u{0307}ce") == "alice")
        #expect(PlayerName.skeleton("ALI\u{0307}CE") == "alice")
        #expect(PlayerName.skeleton("\u{0458}\u{0307}o") == "jo", "a Cyrillic j's dot too")
        #expect(PlayerName.skeleton("e\u{0307}va") != "eva")
    }

    @Test func everyLookAlikeInTheTableReadsAsItsLatinLetterInAnyCase() {
        for (latin, lookAlikes) in ConfusableLetters.table {
            #expect(("a"..."z").contains(latin) || latin == "-", "the table maps only to a-z and the hyphen: \(latin)")
            for scalar in lookAlikes.unicodeScalars {
                #expect(!scalar.isASCII, "ASCII is never mapped: \(scalar)")
                #expect(String(scalar).precomposedStringWithCompatibilityMapping == String(scalar),
                        "NFKC changes U+\(String(scalar.value, radix: 16)) before the table is read")
                let alone = String(scalar)
                #expect(PlayerName.skeleton(alone) == String(latin), "U+\(String(scalar.value, radix: 16))")
                // In a name, beside ASCII.
                #expect(PlayerName.skeleton("x" + alone + "9") == "x\(latin)9", "U+\(String(scalar.value, radix: 16))")
            }
        }
    }

    @Test func noLookAlikeIsListedTwice() {
        var seen: [Unicode.Scalar: Unicode.Scalar] = [:]
        for (latin, lookAlikes) in ConfusableLetters.table {
            for scalar in lookAlikes.unicodeScalars {
                #expect(seen.updateValue(latin, forKey: scalar) == nil, "U+\(String(scalar.value, radix: 16)) listed twice")
            }
        }
        #expect(seen.count == ConfusableLetters.latin.count)
    }

    @Test func asciiKeepsItsLettersDigitsAndSignsAndOnlyFoldsCase() {
        for byte in UInt8(0x20)...UInt8(0x7E) {
            let text = String(UnicodeScalar(byte))
            #expect(PlayerName.skeleton(text) == text.lowercased(), "\(byte)")
        }
        // Digits are not letters: these stay distinct.
        #expect(PlayerName.skeleton("bob1") != PlayerName.skeleton("bobl"))
        #expect(PlayerName.skeleton("b0b") != PlayerName.skeleton("bob"))
    }

    @Test func everyFullwidthLetterAndDigitFoldsToASCII() {
        for (start, ascii) in [(0xFF21, 0x41), (0xFF41, 0x61), (0xFF10, 0x30)] {
            let count = ascii == 0x30 ? 10 : 26
            for offset in 0..<count {
                let wide = String(UnicodeScalar(UInt32(start + offset))!)
                let narrow = String(UnicodeScalar(UInt8(ascii + offset)))
                #expect(PlayerName.skeleton(wide) == narrow.lowercased(), "U+\(String(start + offset, radix: 16))")
            }
        }
        // Other compatibility forms: mathematical bold, circled, ligatures.
        #expect(PlayerName.skeleton("\u{1D41A}\u{1D425}\u{1D422}\u{1D41C}\u{1D41E}") == "alice")
        #expect(PlayerName.skeleton("\u{FB01}sh") == "fish")
    }

    @Test func invisibleCharactersAreNotPartOfTheSkeleton() {
        #expect(PlayerName.skeleton("al\u{3164}ice") == "alice")
        #expect(PlayerName.skeleton("ali\u{200B}ce") == "alice")
        #expect(PlayerName.skeleton("alice\u{FE0F}") == "alice")
    }

    @Test func theSkeletonIsStable() {
        let names = ["alice", "\u{0430}lice", "Ωmega", "名前", "José", "\u{0130}lker", "Υves", "\u{FF21}nn", "straße"]
        for name in names {
            let once = PlayerName.skeleton(name)
            #expect(PlayerName.skeleton(once) == once, "\(name)")
        }
        // Distinct names stay distinct: accents, other scripts' own words.
        #expect(PlayerName.skeleton("José") != PlayerName.skeleton("Jose"))
        #expect(PlayerName.skeleton("名前") == "名前")
    }

    /// Every letter of the Basic Multilingual Plane: its skeleton is its own skeleton (comparing
    /// skeletons is an equivalence), and a letter of Greek or Cyrillic that the table leaves
    /// alone never turns into ASCII (nothing is confused by accident).
    @Test func everyLetterOfThePlaneHasAStableSkeleton() {
        let letters: Swift.Set<Unicode.GeneralCategory> = [.uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter]
        var checked = 0
        for value in UInt32(0x80)...UInt32(0xFFFF) {
            guard let scalar = Unicode.Scalar(value), letters.contains(scalar.properties.generalCategory) else { continue }
            let name = "x" + String(scalar)
            let once = PlayerName.skeleton(name)
            let twice = PlayerName.skeleton(once)
            #expect(twice == once, "U+\(String(value, radix: 16))")
            let greekOrCyrillic = (0x0370...0x03FF).contains(value) || (0x0400...0x04FF).contains(value)
            if greekOrCyrillic && ConfusableLetters.latin[scalar] == nil && String(scalar).precomposedStringWithCompatibilityMapping == String(scalar) {
                let lower = String(scalar).lowercased().unicodeScalars
                if lower.count == 1, let folded = lower.first, ConfusableLetters.latin[folded] != nil { continue }
                let becameASCII = once.dropFirst().unicodeScalars.allSatisfy { $0.isASCII }
                #expect(!becameASCII, "U+\(String(value, radix: 16)) became ASCII: \(once)")
            }
            checked += 1
        }
        #expect(checked > 40_000)
    }

    @Test func namesWithNothingVisibleAreRefused() {
        let blank = ["\u{3164}\u{3164}\u{3164}", "\u{115F}", "\u{1160}a", "\u{FFA0}", "\u{2800}\u{2800}", "\u{301}", "a\u{3164}",
                     "\u{200B}", "\u{2060}\u{FEFF}", "ann\u{FE0F}", "\u{034F}bob"]
        for name in blank {
            #expect(!PlayerName.isVisible(name), "\(name.unicodeScalars.map { String($0.value, radix: 16) })")
        }
        for name in ["a", "ann", "名", "é", "-", "☺", "a b", "7", "José"] {
            #expect(PlayerName.isVisible(name), "\(name)")
        }
    }

    /// A name is printable: no control, format, separator, unassigned, surrogate or private-use
    /// character, no whitespace but the space, none at either end, at most `maxLength` characters.
    /// Printable ASCII takes a shortcut past the Unicode properties: it must agree with them for
    /// every character of the Basic Multilingual Plane, alone, doubled and at the length's limit.
    @Test func aNameIsAcceptableExactlyWhenEveryCharacterIsPrintable() {
        let refused: Set<Unicode.GeneralCategory> = [.control, .format, .lineSeparator, .paragraphSeparator, .unassigned, .surrogate, .privateUse]
        let limit = ClientMessageDecoder.maxNameLength
        var checked = 0
        for value in UInt32(0)...0xFFFF {
            guard let scalar = Unicode.Scalar(value) else { continue }
            let printable = !refused.contains(scalar.properties.generalCategory) && (scalar == " " || !scalar.properties.isWhitespace)
            let one = String(Character(scalar))
            for (name, expected) in [(one, printable && scalar != " "), ("a" + one + "b", printable),
                                     (String(repeating: "x", count: limit - 1) + one, printable && scalar != " " && one.count == 1)] {
                #expect(ClientMessageDecoder.isAcceptable(name: name, maxLength: limit) == expected, "U+\(String(value, radix: 16))")
                checked += 1
            }
        }
        #expect(checked > 190_000)
        #expect(ClientMessageDecoder.isAcceptable(name: String(repeating: "a", count: limit), maxLength: limit))
        #expect(!ClientMessageDecoder.isAcceptable(name: String(repeating: "a", count: limit + 1), maxLength: limit))
        #expect(ClientMessageDecoder.isAcceptable(name: String(repeating: "é", count: limit), maxLength: limit))
        #expect(!ClientMessageDecoder.isAcceptable(name: String(repeating: "é", count: limit + 1), maxLength: limit))
        #expect(!ClientMessageDecoder.isAcceptable(name: "", maxLength: limit))
        #expect(!ClientMessageDecoder.isAcceptable(name: " ann", maxLength: limit) && !ClientMessageDecoder.isAcceptable(name: "ann ", maxLength: limit))
    }

    @Test func aJoinUnderAnInvisibleNameIsABadName() throws {
        for name in ["\u{3164}\u{3164}\u{3164}", "\u{2800}", "x\u{115F}"] {
            let line = #"{"type":"join","name":"\#(name)"}"#
            let error = try #require(ClientMessageDecoder.decode(Array(line.utf8)).failure)
            #expect(error.code == .badField && error.details["field"] == "name", "\(error.message)")
        }
        #expect(ClientMessageDecoder.decode(Array(#"{"type":"join","name":"\u3164a"}"#.utf8)).failure?.code == .badField)
    }

    /// `I`, `l` and `|` are drawn as one stroke; case and a dotted `i` are kept.
    @Test func iLAndTheBarAreDrawnAlike() {
        #expect(PlayerName.drawnAlike("alice", "aIice") && PlayerName.drawnAlike("alice", "a|ice"))
        #expect(PlayerName.drawnAlike("Ian", "lan") && PlayerName.drawnAlike("alice", "a\u{FF29}ice"))
        #expect(!PlayerName.drawnAlike("alice", "aiice") && !PlayerName.drawnAlike("alice", "ALICE"))
        #expect(!PlayerName.drawnAlike("McIntosh", "mclntosh"))
        #expect(PlayerName.lookAlikeKey("bob") == nil && PlayerName.lookAlikeKey("Ann") == nil)
        #expect(PlayerName.lookAlikeKey("alice") == "aiice")
    }

    /// Every name of up to four strokes and letters: names drawn alike share the store's key,
    /// and a name without a key has no look-alike under another skeleton.
    @Test func namesDrawnAlikeShareTheLookAlikeKey() {
        let letters: [String] = ["a", "i", "I", "l", "L", "|", "1", "M"]
        var names: [String] = [], longest = [""]
        for _ in 0..<4 {
            longest = longest.flatMap { name in letters.map { name + $0 } }
            names += longest
        }
        #expect(names.count == 8 + 64 + 512 + 4_096)
        let byDrawing = Dictionary(grouping: names, by: PlayerName.drawn)
        #expect(byDrawing["alla"]?.count == 9, "a, then three strokes of each two, then a")
        for (_, alike) in byDrawing {
            let keys = Set(alike.map(PlayerName.lookAlikeKey))
            #expect(keys.count == 1, "\(alike)")
            if keys.first! == nil { #expect(Set(alike.map(PlayerName.skeleton)).count == 1, "\(alike)") }
        }
    }
}

extension Result {
    fileprivate var failure: Failure? {
        if case .failure(let error) = self { return error }
        return nil
    }
}
