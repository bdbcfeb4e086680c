import Testing
@testable import SetWire

/// Issue 32: the door's line says whether its connection is a house bot and which door bot match
/// it was started for; a door line naming any other match is a bad field.
struct DoorLineTests {
    @Test func aHouseBotsLineAndABotMatchRoundTrip() throws {
        for attestation in [DoorAttestation(fingerprint: nil, address: "203.0.113.5", houseBot: true, match: "bot-0123abcd"),
                            DoorAttestation(fingerprint: "SHA256:" + String(repeating: "A", count: 42) + "Q", address: "::1",
                                            match: "bot-0123abcd-ultra"),
                            DoorAttestation(fingerprint: nil, address: "203.0.113.5")] {
            let line = ClientMessageEncoder.line(ClientRequest(.door(attestation)))
            #expect(try ClientMessageDecoder.decode(Array(line.dropLast())).get() == ClientRequest(.door(attestation)))
        }
        let plain = String(decoding: ClientMessageEncoder.line(ClientRequest(.door(DoorAttestation(fingerprint: nil, address: "10.0.0.1")))), as: UTF8.self)
        #expect(!plain.contains("bot") && !plain.contains("match"), "absent when not said: \(plain)")
    }

    @Test func aDoorLineNamesOnlyADoorBotMatch() {
        for (line, field) in [(#"{"type":"door","address":"10.0.0.1","match":"friday"}"#, "match"),
                              (#"{"type":"door","address":"10.0.0.1","match":"bot-a b"}"#, "match"),
                              (#"{"type":"door","address":"10.0.0.1","bot":"yes"}"#, "bot")] {
            guard case .failure(let error) = ClientMessageDecoder.decode(Array(line.utf8)) else {
                Issue.record("accepted: \(line)")
                continue
            }
            #expect(error.code == .badField && error.details["field"] == .string(field), "\(line): \(error.message)")
        }
    }

    @Test func aKeysDoorNameIsComputedFromItsFingerprint() {
        let fingerprint = "SHA256:uNiVztksCsDhcc0u9e8BujQXVUpKZIDTMczCvj3tD2s"
        #expect(DoorAttestation.name(fingerprint: fingerprint) == "key-uNiVzt")
        #expect(DoorAttestation.isBotMatch("bot-5d1c0e7a") && !DoorAttestation.isBotMatch("robot-1") && !DoorAttestation.isBotMatch("Bot-1"))
    }
}
