import Dispatch
import Foundation
import SetNet
import SetRules
import SetServer
import SetWire
import Testing

/// Issue 32 items 12, 14, 15 and 16 over real loopback sockets: invented keys, invisible lines,
/// repeats that expire, stock phrases, and a silenced file read off the loop.
@Suite(.serialized) struct ChatRoundFiveTests {
    /// A key as a client makes one: 64 lowercase hex digits, fresh each call.
    static func inventedKey() -> String {
        (0..<32).map { _ in String(format: "%02x", UInt8.random(in: 0...255)) }.joined()
    }

    @Test func aSpectatorInventingAKeyForEachConnectionSharesItsAddresssLines() throws {
        let server = try TestServer()
        defer { server.stop() }
        let (ann, bob) = try TestClient.duel(server)
        defer { withExtendedLifetime((ann, bob)) {} }
        for n in 0..<5 {
            let watcher = try TestClient.joined(server, "eve\(n)", key: Self.inventedKey(), from: "127.0.0.9", role: .spectator)
            #expect(try watcher.say("line \(n)") == nil)
            watcher.socket.close("a fresh key next time")
        }
        let sixth = try TestClient.joined(server, "eve5", key: Self.inventedKey(), from: "127.0.0.9", role: .spectator)
        #expect(try sixth.say("line 5")?.code == .chatLimited, "an invented key is no new person")
        let neighbour = try TestClient.joined(server, "vic", key: Self.inventedKey(), from: "127.0.0.10", role: .spectator)
        #expect(try neighbour.say("mine") == nil, "another address has its own lines")
    }

    @Test func invisibleLinesAreRefusedAndInvisibleCharactersDoNotMakeARepeatNew() throws {
        let server = try TestServer()
        defer { server.stop() }
        let (ann, bob) = try TestClient.duel(server)
        for invisible in ["\u{200B}", "\u{2060}\u{FEFF}", "\u{200B} \u{200C}\u{200D}", "\u{3164}\u{3164}\u{3164}", "\u{FE0F}"] {
            let refused = try ann.say(invisible)
            #expect(refused?.code == .badField && refused?.details["field"] == "text", "\(invisible.unicodeScalars.map(\.value))")
        }
        #expect(try ann.say("nice one") == nil)
        for disguised in ["nice\u{200B} one", "ＮＩＣＥ ｏｎｅ", "nice\u{3164}one"] {
            #expect(try ann.say(disguised)?.code == .chatRepeated, "\(disguised.unicodeScalars.map(\.value))")
        }
        #expect(!bob.chatLines.contains { $0.text != "nice one" }, "nothing invisible or disguised reached bob")
    }

    @Test func aRepeatIsSaidOnceItsWindowHasPassedAndGGAfterEveryGame() throws {
        let server = try TestServer()
        defer { server.stop() }
        let (ann, bob) = try TestClient.duel(server)
        #expect(try ann.say("gg") == nil)
        #expect(try ann.say("gg") == nil, "a stock phrase may be said again at once")
        #expect(try ann.say("nice one") == nil)
        #expect(try ann.say("nice one")?.code == .chatRepeated)
        server.advance(by: 10_000)
        #expect(try ann.say("nice one") == nil, "the window has passed: no flood")
        #expect(try ann.say("Nice one!")  == nil, "another line")
        _ = try bob.awaitChat("Nice one!")
        #expect(bob.chatLines.map(\.text) == ["gg", "gg", "nice one", "nice one", "Nice one!"])
    }

    /// A silenced file being read (a reader held back, as a 300,000-line file is for half a
    /// second) does not hold up the loop: pings and the match go on, and the line said meanwhile
    /// is judged by the new list once it is in.
    @Test func theLoopKeepsAnsweringWhileTheSilencedFileIsRead() throws {
        let data = NSTemporaryDirectory() + "setgame-chat-\(UUID().uuidString)"
        let gate = DispatchSemaphore(value: 0)
        let reading = DispatchSemaphore(value: 0)
        let reader = SilencedFileReader { path in
            reading.signal()
            gate.wait()
            return try? String(contentsOfFile: path, encoding: .utf8)
        }
        let server = try TestServer {
            $0.dataDirectory = data
            $0.chat.silencedReader = reader
        }
        // Released whatever happens, so a failing run still stops.
        defer {
            gate.signal()
            server.stop()
        }
        let (ann, bob) = try TestClient.duel(server)
        try "address 127.0.0.1\n".write(toFile: data + "/silenced", atomically: true, encoding: .utf8)
        ann.send(.chat(room: nil, text: "during"), id: "c1")
        reading.wait()
        bob.send(.ping(time: 7))
        _ = try bob.waitFor("a pong while the file is read") { if case .pong(_, 7, _) = $0 { true } else { nil } }
        bob.send(.act(.claim, seat: nil), id: "claim")
        _ = try bob.waitFor("the claim's ack while the file is read") { if case .ack("claim", _) = $0 { true } else { nil } }
        gate.signal()
        let answer = try ann.waitFor("the line's answer") { message -> WireError?? in
            switch message {
            case .ack("c1", _): .some(nil)
            case .error(let error, "c1"): .some(error)
            default: nil
            }
        }
        #expect(answer?.code == .chatSilenced, "judged by the list the file now holds")
        #expect(server.logLines.all.contains { $0.contains("1 address(es)") })
    }
}
