import SetRules
import Testing
@testable import SetWire

/// Issue 27: chat on the wire, and the one way text becomes a chat line.
struct ChatWireTests {
    @Test func chatRequestsAndLinesRoundTrip() throws {
        for message in [ClientMessage.chat(room: nil, text: "gg"), .chat(room: .spectators, text: "nice \"find\"")] {
            let line = ClientMessageEncoder.line(ClientRequest(id: "c", message))
            #expect(try ClientMessageDecoder.decode(Array(line.dropLast())).get() == ClientRequest(id: "c", message))
        }
        for line in [ChatLine(match: "m", room: .players, name: "ann", seat: .second, text: "gg", time: 5),
                     ChatLine(match: "m", room: .spectators, name: "eve", seat: nil, text: "漢字", time: 6)] {
            let bytes = ServerMessageCoding.line(.chat(line))
            #expect(try ServerMessageCoding.decode(Array(bytes.dropLast())).get() == .chat(line))
        }
    }

    @Test func aPlayerLineNeedsItsSeatAndASpectatorsHasNone() {
        let spectatorWithSeat = #"{"match":"m","name":"eve","role":"spectator","room":"spectators","seat":0,"text":"x","time":1,"type":"chat"}"#
        let playerWithout = #"{"match":"m","name":"ann","role":"player","room":"players","text":"x","time":1,"type":"chat"}"#
        for line in [spectatorWithSeat, playerWithout] {
            guard case .failure(let error) = ServerMessageCoding.decode(Array(line.utf8)) else { Issue.record("accepted \(line)"); continue }
            #expect(error.code == .badField)
        }
        guard case .failure(let missing) = ClientMessageDecoder.decode(Array(#"{"type":"chat"}"#.utf8)) else {
            Issue.record("a chat without text was accepted")
            return
        }
        #expect(missing.code == .missingField)
    }

    @Test func textIsMadePrintableSpacedOnceAndMeasuredInColumns() throws {
        #expect(try ChatText.said("  \u{1B}[31mred\u{1B}[0m\t\u{202E}text\u{2066} \n ok ").get() == "[31mred[0m text ok")
        #expect(try ChatText.said(String(repeating: "a", count: 200)).get().count == 200)
        #expect(throws: WireError.self) { try ChatText.said(String(repeating: "a", count: 201)).get() }
        #expect(try ChatText.said(String(repeating: "🎉", count: 100)).get().count == 100, "emoji take two columns each")
        #expect(throws: WireError.self) { try ChatText.said(String(repeating: "🎉", count: 101)).get() }
        #expect(throws: WireError.self) { try ChatText.said("\u{7}\u{1B}\u{9B}  ").get() }
    }

    /// Issue 32 item 13: a format character takes one column in some terminals (tmux draws
    /// U+0600 and U+00AD one each) and none in others, so none reaches a terminal: every one is
    /// removed, but a zero-width joiner inside an emoji sequence.
    @Test func formatCharactersNeverReachATerminal() throws {
        var formats = 0
        for value in UInt32(0)...0x10FFFF {
            guard let scalar = Unicode.Scalar(value), scalar.properties.generalCategory == .format else { continue }
            formats += 1
            #expect(ServerText.printable("a\(Character(scalar))b") == "ab", "U+\(String(value, radix: 16))")
        }
        #expect(formats > 150)
        #expect(try ChatText.said(String(repeating: "\u{0600}", count: 300) + "hi").get() == "hi")
        #expect(try ChatText.said(String(repeating: "\u{00AD}", count: 300) + "hi").get() == "hi")
        #expect(ServerText.printable("👩\u{200D}👩\u{200D}👧 a\u{200D}b \u{200D}") == "👩\u{200D}👩\u{200D}👧 ab ", "a joiner joins emoji only")
        #expect(ServerText.printable("x\u{2028}y\u{2029}z") == "x y z", "Unicode's line breaks keep a message on its line")
    }

    /// Issue 32 item 14: a line with nothing visible in it is no line.
    /// Combining marks pile on the character before them: a "zalgo" line of hundreds spills over
    /// the rows above and below in a terminal. At most `maxMarks` stay on one character, none
    /// with no character under it; the accents of Vietnamese and pointed Hebrew stay whole. A
    /// name the cap would change is refused, so no two names show alike once cut.
    @Test func marksPiledOnOneCharacterAreCutToAFew() throws {
        let pile = String(repeating: "\u{0301}", count: 300)
        #expect(ServerText.printable("x\(pile)y") == "x\u{0301}\u{0301}\u{0301}\u{0301}y")
        #expect(ServerText.printable("\u{0301}\u{0301}ab") == "ab", "marks with nothing under them")
        #expect(ServerText.printable("a\t\u{0301}") == "a \u{0301}", "a space is something to stand on")
        for kept in ["Nguye\u{0302}\u{0303}n", "Vi\u{1EC7}t", "\u{05E9}\u{05C1}\u{05B8}\u{05DC}\u{05D5}\u{05B9}\u{05DD}", "ไม้", "e\u{20DD}"] {
            #expect(ServerText.printable(kept) == kept, "\(kept)")
            #expect(PlayerName.isVisible(kept), "\(kept)")
        }
        #expect(!PlayerName.isVisible("x" + String(repeating: "\u{0301}", count: 20)))
        #expect(!PlayerName.isVisible("\u{0301}ann"))
        #expect(PlayerName.isVisible("x" + String(repeating: "\u{0301}", count: ServerText.maxMarks)))
        let refused = ClientMessageDecoder.decode(Array(#"{"type":"join","name":"a\#u{0301}\#u{0301}\#u{0301}\#u{0301}\#u{0301}"}"#.utf8))
        guard case .failure(let error) = refused else {
            Issue.record("a name of five marks on one letter was taken: \(refused)")
            return
        }
        #expect(error.code == .badField && error.message.contains("combining marks"))
    }

    @Test func aLineOfInvisibleCharactersIsRefused() throws {
        for invisible in ["\u{200B}", "\u{2060}\u{FEFF}", "\u{200B} \u{200C}", "\u{3164}\u{3164}", "\u{115F}\u{1160}", "\u{FE0F}", "\u{034F}",
                          "\u{2800}", " \u{2800}\u{2800} "] {
            #expect(throws: WireError.self, "\(invisible.unicodeScalars.map(\.value))") { try ChatText.said(invisible).get() }
            #expect(!VisibleText.hasVisible(invisible))
        }
        #expect(try ChatText.said("a\u{3164}\u{3164}b").get() == "a b", "a Hangul filler is a space")
        #expect(try ChatText.said("❤\u{FE0F}").get() == "❤\u{FE0F}", "a variation selector on something stays")
    }

    @Test func foldingReadsInvisiblesCaseAndCompatibilityFormsAsTheSameLine() {
        for same in ["g\u{200B}g", "GG", "ＧＧ", " g\u{2060}G ", "gg\u{FE0F}"] { #expect(VisibleText.folded(same) == "gg", "\(same)") }
        #expect(VisibleText.folded("ﬁne  DAY") == "fine day")
        #expect(VisibleText.folded("g g") != "gg")
    }
}
