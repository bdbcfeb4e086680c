import SetRules
import SetWire
import Testing

/// The lines lag compensation adds to the protocol, pinned as Protocol.md shows them.
@Suite struct RoundTripWireTests {
    func line(_ message: ServerMessage) -> String { String(decoding: ServerMessageCoding.line(message).dropLast(), as: UTF8.self) }

    @Test func aMeasuringPingSaysEchoAndAKeepAlivePingIsAsBefore() {
        #expect(line(.ping(time: 31_000, echo: true)) == #"{"echo":true,"time":31000,"type":"ping"}"#)
        #expect(line(.ping(time: 31_000)) == #"{"time":31000,"type":"ping"}"#)
        #expect(ServerMessageCoding.decode(Array(#"{"echo":true,"time":5,"type":"ping"}"#.utf8)) == .success(.ping(time: 5, echo: true)))
    }

    @Test func aPongEchoesTheServersTimeAndNeedsIt() {
        let pong = ClientRequest(.pong(time: 31_000))
        #expect(String(decoding: ClientMessageEncoder.line(pong).dropLast(), as: UTF8.self) == #"{"time":31000,"type":"pong"}"#)
        #expect(ClientMessageDecoder.decode(Array(#"{"type":"pong","time":31000}"#.utf8)) == .success(pong))
        guard case .failure(let error) = ClientMessageDecoder.decode(Array(#"{"type":"pong"}"#.utf8)) else {
            return #expect(Bool(false), "a pong without a time")
        }
        #expect(error.code == .missingField)
    }

    @Test func roundTripsGoByTheSeatWithNullWhereUnmeasured() {
        let message = ServerMessage.roundTrips(match: "demo", ms: [12, nil])
        #expect(line(message) == #"{"match":"demo","rttMs":[12,null],"type":"round_trips"}"#)
        #expect(ServerMessageCoding.decode(ServerMessageCoding.line(message).dropLast().map { $0 }) == .success(message))
        let tooMany = Array(#"{"match":"demo","rttMs":[1,2,3],"type":"round_trips"}"#.utf8)
        guard case .failure = ServerMessageCoding.decode(tooMany) else { return #expect(Bool(false), "three seats' round trips") }
    }
}
