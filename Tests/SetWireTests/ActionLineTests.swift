import SetRules
@testable import SetWire
import Testing

/// The direct reading of action lines (`ActionLine`) must decode every line as parsing does.
@Suite struct ActionLineTests {
    /// Every action, as clients write it, with and without an id, a seat and a claim's `seen`.
    @Test func theLinesClientsWriteAreReadDirectlyAndAsParsed() {
        let actions: [Action] = [.select(Card(id: 0)!), .select(Card(id: 80)!), .claim, .deal, .hint, .pass, .resign, .rematch]
        var taken = 0
        for action in actions {
            for id: JSONValue? in [nil, .int(0), .int(7), .int(123_456_789)] {
                for seat: Seat? in [nil, .first, .second] {
                    for seen: Int? in action == .claim ? [nil, 0, 41, 999_999_999] : [nil] {
                        let request = ClientRequest(id: id, .act(action, seat: seat, seen: seen))
                        var line = ClientMessageEncoder.line(request)
                        line.removeLast()
                        let direct = ActionLine.decode(line)
                        #expect(direct == request, "\(String(decoding: line, as: UTF8.self))")
                        #expect(ClientMessageDecoder.decodeParsing(line) == .success(request))
                        if direct != nil { taken += 1 }
                    }
                }
            }
        }
        #expect(taken == 4 * 3 * (7 + 4))
    }

    /// A key given twice counts once, with its last value (Protocol.md, "Framing"), on the direct
    /// path and the parsed one alike: an action line with a key twice is left to the parser.
    @Test func aKeyGivenTwiceCountsWithItsLastValue() {
        func decoded(_ text: String) -> Result<ClientRequest, WireError> { ClientMessageDecoder.decode(Array(text.utf8)) }
        #expect(decoded(#"{"type":"ping","type":"list"}"#) == .success(ClientRequest(id: nil, .list(after: nil, limit: nil))))
        #expect(ActionLine.decode(Array(#"{"card":1,"card":2,"type":"select"}"#.utf8)) == nil)
        #expect(decoded(#"{"card":1,"card":2,"type":"select"}"#) == .success(ClientRequest(id: nil, .act(.select(Card(id: 2)!), seat: nil, seen: nil))))
    }

    /// Lines near the plain form (other keys, orders, values, spacing) decode to the same request
    /// or the same error either way; many of them are taken directly.
    @Test func linesNearThePlainFormDecodeAsParsed() {
        let keys = ["card", "id", "seat", "seen", "type", "cards", "x", "ID"]
        let values = ["0", "1", "2", "01", "00", "80", "81", "999999999", "1000000000", "2147483648", "-1", "1.0", "1e2",
                      "null", "true", "\"3\"", "\"select\"", "\"claim\"", "\"deal\"", "\"hint\"", "\"pass\"", "\"resign\"",
                      "\"rematch\"", "\"join\"", "\"ping\"", "\"Claim\"", "\"\"", "[]", "{}"]
        var random = SplitMix64(seed: 43)
        var taken = 0
        for _ in 0..<20_000 {
            var members: [String] = []
            for _ in 0..<Int(random.next() % 5) {
                let key = keys[Int(random.next() % UInt64(keys.count))]
                let value = values[Int(random.next() % UInt64(values.count))]
                members.append("\"\(key)\":\(value)")
            }
            if random.next() % 3 != 0 { members.append("\"type\":" + ["\"select\"", "\"claim\"", "\"deal\"", "\"pass\""][Int(random.next() % 4)]) }
            if random.next() % 2 == 0 { members.sort() }
            let separator = random.next() % 10 == 0 ? ", " : ","
            var text = "{" + members.joined(separator: separator) + "}"
            switch random.next() % 12 {
            case 0: text = " " + text
            case 1: text += " "
            case 2: text.removeLast()
            case 3: text = String(text.dropFirst())
            default: break
            }
            let line = Array(text.utf8)
            let decoded = ClientMessageDecoder.decode(line)
            #expect(decoded == ClientMessageDecoder.decodeParsing(line), "\(text)")
            if ActionLine.decode(line) != nil { taken += 1 }
        }
        #expect(taken > 500, "too few lines took the direct path to compare: \(taken)")
    }
}
