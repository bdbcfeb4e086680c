import SetWire
import Testing

/// Issue 44: the arena requests are checked as they are decoded, as Protocol.md says.
@Suite struct ArenaWireTests {
    static func decode(_ line: String) -> Result<ClientRequest, WireError> { ClientMessageDecoder.decode(Array(line.utf8)) }

    static func code(_ line: String) -> ErrorCode? {
        if case .failure(let error) = decode(line) { return error.code }
        return nil
    }

    @Test func aCreationTakesItsDefaultsAndRoundTrips() throws {
        let request = try Self.decode(#"{"type":"arena_create","arena":"friday","minutes":10}"#).get()
        #expect(request.message == .arena(.create(ArenaCreation(arena: "friday", minutes: 10, variant: .classic, rated: true, startsInS: 0))))
        let again = ClientMessageEncoder.line(request)
        #expect(try Self.decode(String(decoding: again.dropLast(), as: UTF8.self)).get() == request)
    }

    @Test func namesMinutesAndStartsAreBounded() {
        #expect(Self.code(#"{"type":"arena_create","arena":"a-name-twenty-one-xyz","minutes":10}"#) == .badField)
        #expect(Self.code(#"{"type":"arena_create","arena":"twenty-chars-exactly","minutes":10}"#) == nil)
        #expect(Self.code(#"{"type":"arena_create","arena":"fri.day","minutes":10}"#) == .badField)
        #expect(Self.code(#"{"type":"arena_create","arena":"friday","minutes":0}"#) == .badField)
        #expect(Self.code(#"{"type":"arena_create","arena":"friday","minutes":181}"#) == .badField)
        #expect(Self.code(#"{"type":"arena_create","arena":"friday"}"#) == .missingField)
        #expect(Self.code(#"{"type":"arena_create","arena":"friday","minutes":5,"startsInS":3601}"#) == .badField)
        #expect(Self.code(#"{"type":"arena_join","arena":"friday"}"#) == .missingField)
        #expect(Self.code(#"{"type":"arena_join","arena":"friday","name":"ann","watch":"yes"}"#) == .badField)
        #expect(Self.code(#"{"type":"arena_results"}"#) == .missingField)
        #expect(Self.code(#"{"type":"arena_join","arena":"friday","name":"ann","ticket":"short"}"#) == .badField)
    }

    @Test func aJoinCarriesBotAndWatch() throws {
        let request = try Self.decode(#"{"type":"arena_join","arena":"friday","name":"bot-1","bot":true,"watch":true}"#).get()
        #expect(request.message == .arena(.join(ArenaJoinRequest(arena: "friday", name: "bot-1", bot: true, watch: true))))
        let ticket = String(repeating: "A", count: 43)
        let handed = try Self.decode(#"{"type":"arena_join","arena":"friday","name":"ann","ticket":"\#(ticket)"}"#).get()
        #expect(handed.message == .arena(.join(ArenaJoinRequest(arena: "friday", name: "ann", ticket: ticket))))
        #expect(try Self.decode(String(decoding: ClientMessageEncoder.line(handed).dropLast(), as: UTF8.self)).get() == handed)
    }
}
