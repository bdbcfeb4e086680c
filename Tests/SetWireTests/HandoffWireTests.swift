import SetRules
import SetWire
import Testing

/// A join's handoff ticket and its refusal, pinned as Protocol.md ("Handoff tickets") shows them.
@Suite struct HandoffWireTests {
    static let ticket = "oU3v1yJ5mQeQm2R8bq0kQnHhT0M2Xv9cW7a4s1L0d6E"

    @Test func aJoinCarriesItsTicketAsTheDocumentShowsIt() throws {
        var join = JoinRequest(name: "key-4f2a", match: "friday")
        join.ticket = Self.ticket
        let line = String(decoding: ClientMessageEncoder.line(ClientRequest(.join(join))).dropLast(), as: UTF8.self)
        #expect(line == #"{"match":"friday","mode":"duel","name":"key-4f2a","protocol":1,"role":"player","ticket":"oU3v1yJ5mQeQm2R8bq0kQnHhT0M2Xv9cW7a4s1L0d6E","type":"join"}"#)
        let documented = #"{"match":"friday","name":"key-4f2a","ticket":"oU3v1yJ5mQeQm2R8bq0kQnHhT0M2Xv9cW7a4s1L0d6E","type":"join"}"#
        #expect(ClientMessageDecoder.decode(Array(documented.utf8)).map(\.message) == .success(.join(join)))
    }

    @Test func aTicketThatCannotBeOneIsABadField() {
        let line = #"{"match":"friday","name":"x","ticket":"short","type":"join"}"#
        guard case .failure(let error) = ClientMessageDecoder.decode(Array(line.utf8)) else { Issue.record("decoded"); return }
        #expect(error.code == .badField && error.details["field"] == "ticket")
    }

    @Test func badTicketIsFatalAndDecodes() {
        let line = #"{"code":"bad_ticket","fatal":true,"message":"That handoff ticket is unknown, used, expired or for another match; connect through the door again.","type":"error"}"#
        guard case .success(.error(let error, nil)) = ServerMessageCoding.decode(Array(line.utf8)) else { Issue.record("not an error"); return }
        #expect(error.code == .badTicket && error.fatal)
    }

    @Test func aRedirectsAddressIsAPlaceToConnectTo() {
        #expect(ServerPlace(address: "127.0.0.2:7381") == .tcp(host: "127.0.0.2", port: 7381))
        #expect(ServerPlace(address: "[::1]:7381") == .tcp(host: "::1", port: 7381))
        #expect(ServerPlace(address: "nowhere") == nil && ServerPlace(address: "h:0") == nil && ServerPlace(address: ":7381") == nil)
        #expect(ServerPlace.tcp(host: "::1", port: 7381).description == "[::1]:7381")
    }
}
