import SetClient
import SetRules
import SetWire
import Testing

/// Issue 44: a fast bot's ping dropped by the server's rate limit (`rate_limited`, no id) is not
/// a silent server: the session pings again at its time instead of giving up 30 s later.
struct ClientSessionRateLimitTests {
    @Test func aRateLimitedLineIsTheServerReadingNotASilentOne() {
        var session = ClientSessionResilienceTests.paired()
        let interval = ClientSession.pingInterval
        #expect(session.tick(at: interval) == [.send(.ping(time: interval))], "the keep-alive ping")
        let dropped = WireError(.rateLimited, "Over 50 messages a second; this one was dropped.")
        #expect(session.receive(.error(dropped, id: nil), at: interval + 10) == [.refused(dropped)])
        #expect(session.tick(at: 2 * interval) == [.send(.ping(time: 2 * interval))], "the ping that was dropped is sent again")
        _ = session.receive(.pong(time: 0, clientTime: 2 * interval, id: nil), at: 2 * interval + 5)
        #expect(session.tick(at: interval + ClientSession.unansweredLimit).allSatisfy { effect in
            if case .gaveUp = effect { false } else { true }
        })
    }
}
