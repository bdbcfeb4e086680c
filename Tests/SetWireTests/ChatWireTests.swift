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
}
