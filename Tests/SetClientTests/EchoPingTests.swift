import SetClient
import SetRules
import SetWire
import Testing

/// The server's measuring pings (lag compensation): each answered with a pong echoing its time.
@Suite struct EchoPingTests {
    static func seated() -> ClientSession {
        var session = ClientSession(.init(name: "ann", pings: .keepAlive))
        _ = session.connected(at: 0)
        _ = session.receive(.welcome(server: "s", versions: [1], time: 1_000, limits: ServerLimits()), at: 10)
        return session
    }

    @Test func anEchoPingIsAnsweredWithAPongCarryingItsTime() {
        var session = Self.seated()
        #expect(session.receive(.ping(time: 31_000, echo: true), at: 100) == [.send(.pong(time: 31_000))])
        #expect(session.receive(.ping(time: 33_000, echo: true), at: 2_100) == [.send(.pong(time: 33_000))])
    }

    @Test func aFloodOfEchoPingsGetsAtMostOnePongAHalfSecond() {
        var session = Self.seated()
        var pongs = 0
        for ms in stride(from: Int64(100), to: 1_100, by: 10) {
            pongs += session.receive(.ping(time: ms, echo: true), at: ms).count
        }
        #expect(pongs == 2)
    }
}
