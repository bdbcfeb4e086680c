import SetClient
import SetRules
import SetWire
import Testing

/// Issue 27: what a session hears of the chat, and the viewer's own mutes.
struct ChatLogTests {
    static func line(_ text: String, by name: String = "bob", room: ChatRoom = .players, match: String = "m") -> ServerMessage {
        .chat(ChatLine(match: match, room: room, name: name, seat: room == .players ? .second : nil, text: text, time: 1_000))
    }

    @Test func linesOfThisMatchAreKeptAndAJoinStartsAfresh() {
        var session = ClientSessionTests.seated()
        let heard = session.receive(Self.line("gg"), at: 0)
        #expect(heard == [.chatHeard(ChatLine(match: "m", room: .players, name: "bob", seat: .second, text: "gg", time: 1_000), shown: true)])
        #expect(session.receive(Self.line("elsewhere", match: "other"), at: 0).isEmpty)
        #expect(session.chat.lines.map(\.text) == ["gg"])
        // After a join the server sends the kept lines again: none is shown twice.
        _ = session.receive(.joined(role: .player, match: "m", mode: .duel, seat: .first, token: "tok", resumed: true, id: nil), at: 0)
        #expect(session.chat.lines.isEmpty)
        #expect(session.say("hi") == .chat(room: nil, text: "hi"))
    }

    @Test func mutingARoomOrAPersonHidesTheirLinesButKeepsThem() {
        var session = ClientSessionTests.seated()
        session.chat.mute(.room(.spectators))
        let effects = session.receive(Self.line("psst", by: "eve", room: .spectators), at: 0)
        #expect(effects.first == .chatHeard(ChatLine(match: "m", room: .spectators, name: "eve", seat: nil, text: "psst", time: 1_000), shown: false))
        _ = session.receive(Self.line("hi"), at: 0)
        session.chat.mute(ChatLog.Target("@Bob")!)
        #expect(session.chat.shown.isEmpty && session.chat.lines.count == 2)
        session.chat.unmute(.person("BOB"))
        #expect(session.chat.shown.map(\.text) == ["hi"])
        #expect(ChatLog.Target("players") == .room(.players) && ChatLog.Target("@") == nil)
    }

    @Test func theLogKeepsOnlyItsNewestLines() {
        var log = ChatLog()
        for n in 0..<(ChatLog.capacity + 7) {
            log.hear(ChatLine(match: "m", room: .players, name: "a", seat: .first, text: "\(n)", time: Int64(n)))
        }
        #expect(log.lines.count == ChatLog.capacity && log.lines.first?.text == "7")
    }
}
