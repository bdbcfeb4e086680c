import Foundation
import SetNet
import SetRules
import SetServer
import SetWire
import Testing

extension TestClient {
    /// Ann and bob play, eve watches.
    static func duelWithSpectator(_ server: TestServer) throws -> (ann: TestClient, bob: TestClient, eve: TestClient) {
        let (ann, bob) = try duel(server)
        let eve = try joined(server, name: "eve", role: .spectator)
        try ann.awaitSeq(eve.view!.seq)
        try bob.awaitSeq(eve.view!.seq)
        return (ann, bob, eve)
    }

    /// Connects from `source` and joins `match` with an account key (nil: a guest).
    static func joined(_ server: TestServer, _ name: String, key: String?, from source: String, role: Role = .player,
                       match: String = "m") throws -> TestClient {
        let client = try greeted(server, from: source)
        var request = JoinRequest(role: role, name: name, match: match)
        request.account = key
        client.send(.join(request))
        _ = try client.waitFor("snapshot") { if case .snapshot = $0 { true } else { nil } }
        return client
    }

    /// The chat line saying `text`, read already or waited for.
    func awaitChat(_ text: String) throws -> ChatLine {
        if let line = chatLines.first(where: { $0.text == text }) { return line }
        return try waitFor("chat \"\(text)\"") { if case .chat(let line) = $0, line.text == text { line } else { nil } }
    }

    /// Reads everything the server sent before the answer to a fresh ping.
    func settle() throws {
        send(.ping(time: 99))
        _ = try waitFor("pong") { if case .pong(_, 99, _) = $0 { true } else { nil } }
    }

    /// Every chat line read so far.
    var chatLines: [ChatLine] { received.compactMap { if case .chat(let line) = $0 { line } else { nil } } }

    /// Says `text` and waits for the answer to it: its ack (the line was said) or an error.
    func say(_ text: String, in room: ChatRoom? = nil) throws -> WireError? {
        let id = JSONValue.string("say-\(received.count)")
        send(.chat(room: room, text: text), id: id)
        return try waitFor("the answer to a chat line") { message -> WireError?? in
            switch message {
            case .ack(id, _): .some(nil)
            case .error(let error, id): .some(error)
            default: nil
            }
        }
    }
}

/// Issue 27: chat over real sockets, rooms, limits, hostile text, chat settings and restarts.
@Suite(.serialized) struct ChatTests {
    @Test func eachRoomReachesExactlyWhomItShouldAndPlayersReadTheSpectatorsOnlyOnceTheGameIsOver() throws {
        let server = try TestServer()
        defer { server.stop() }
        let (ann, bob, eve) = try TestClient.duelWithSpectator(server)
        // Said first, and seen said (eve has it back), so any copy for a player would come before ann's line.
        #expect(try eve.say("bob missed one") == nil)
        _ = try eve.awaitChat("bob missed one")
        #expect(try ann.say("good luck") == nil)
        for client in [ann, bob, eve] {
            let line = try client.awaitChat("good luck")
            #expect(line.room == .players && line.seat == .first && line.name == "ann" && line.role == .player)
        }
        #expect(!ann.chatLines.contains { $0.room == .spectators })
        #expect(!bob.chatLines.contains { $0.room == .spectators })
        #expect(eve.chatLines.first { $0.text == "bob missed one" }?.seat == nil)

        // Each role writes in its own room only.
        #expect(try bob.say("psst", in: .spectators)?.code == .chatRoomClosed)
        #expect(try eve.say("go ann", in: .players)?.code == .chatRoomClosed)

        // A player joining mid-game is sent the players' room only; a spectator both.
        let late = try TestClient.joined(server, name: "lea", role: .spectator)
        try late.settle()
        #expect(Set(late.chatLines.map(\.text)) == ["bob missed one", "good luck"])

        ann.send(.act(.resign, seat: nil))
        for client in [ann, bob] { _ = try client.awaitEvent("game over") { if case .gameOver = $0 { true } else { false } } }
        #expect(try eve.say("well played both") == nil)
        for client in [ann, bob, eve] { #expect(try client.awaitChat("well played both").room == .spectators) }
    }

    @Test func aPersonSaysAtMostFiveLinesInTenSecondsAndNeverTheSameLineTwiceInARow() throws {
        let server = try TestServer()
        defer { server.stop() }
        let (ann, bob, eve) = try TestClient.duelWithSpectator(server)
        #expect(try ann.say("one") == nil)
        #expect(try ann.say("ONE ")?.code == .chatRepeated)
        #expect(try bob.say("one") == nil, "a repeat is one connection's")
        // Guests are counted by address: ann, bob and eve share 127.0.0.1's five lines.
        #expect(try eve.say("three") == nil)
        server.advance(by: 4_000)
        #expect(try ann.say("four") == nil)
        #expect(try bob.say("five") == nil)
        let limited = try #require(try eve.say("six"))
        #expect(limited.code == .chatLimited && !limited.fatal)
        #expect(limited.details["retryAfterMs"] == .int(6_000))
        // Still connected and still playing: the limit is no disconnect.
        eve.send(.ping(time: 1))
        _ = try eve.waitFor("pong") { if case .pong = $0 { true } else { nil } }
        server.advance(by: 6_000)
        #expect(try eve.say("six") == nil, "the first three lines have left the window")
        #expect(try eve.say("seven") == nil)
        #expect(try eve.say("eight") == nil)
        #expect(try eve.say("nine")?.code == .chatLimited)
    }

    @Test func hostileTextArrivesHarmlessAndTooWideALineIsRefused() throws {
        let server = try TestServer()
        defer { server.stop() }
        let (ann, bob, _) = try TestClient.duelWithSpectator(server)
        let hostile = "\u{1B}[2J\u{1B}]52;c;cHduZWQ=\u{07}hi\u{9B}31m\tthere\u{202E}dlrow\r\nbye\u{0}"
        #expect(try ann.say(hostile) == nil)
        let line = try #require(bob.chatLines.last ?? (try? bob.waitFor("chat") { if case .chat(let line) = $0 { line } else { nil } }))
        #expect(line.text == "[2J]52;c;cHduZWQ=hi31m theredlrow bye")
        #expect(line.text.unicodeScalars.allSatisfy(ServerText.isAllowed))
        #expect(try ann.say(String(repeating: "漢", count: 101))?.code == .badField, "202 columns")
        #expect(try ann.say(String(repeating: "漢", count: 100)) == nil, "200 columns")
        #expect(try ann.say("\u{1B}\u{7}\u{202E}  ")?.code == .badField, "nothing printable left")
    }

    @Test func chatOffRefusesEveryLineAndJournalsNoneAndPlayersOnlyKeepsSpectatorsQuiet() throws {
        let data = NSTemporaryDirectory() + "setgame-chat-\(UUID().uuidString)"
        let off = try TestServer {
            $0.chat.mode = .off
            $0.dataDirectory = data
        }
        let (ann, bob, eve) = try TestClient.duelWithSpectator(off)
        #expect(try ann.say("hello")?.code == .chatOff)
        #expect(try eve.say("hello")?.code == .chatOff)
        ann.send(.act(.claim, seat: nil), id: "c")
        _ = try ann.waitFor("ack") { if case .ack = $0 { true } else { nil } }
        withExtendedLifetime(bob) { off.stop() }
        let journal = try String(contentsOfFile: data + "/m.jsonl", encoding: .utf8)
        #expect(journal.contains(#""type":"act""#) && !journal.contains("chat"))

        let quiet = try TestServer { $0.chat.mode = .players }
        defer { quiet.stop() }
        let (bea, bert, ida) = try TestClient.duelWithSpectator(quiet)
        defer { withExtendedLifetime(bert) {} }
        #expect(try ida.say("hello")?.code == .chatOff)
        #expect(try bea.say("hello") == nil)
        _ = try ida.awaitChat("hello")
    }

    @Test func aRestartRestoresTheRecentConversationAndReplayShowsIt() throws {
        let data = NSTemporaryDirectory() + "setgame-chat-\(UUID().uuidString)"
        var first: TestServer? = try TestServer { $0.dataDirectory = data }
        let (ann, bob, eve) = try TestClient.duelWithSpectator(first!)
        #expect(try ann.say("gl hf") == nil)
        #expect(try eve.say("tense") == nil)
        _ = try bob.awaitChat("gl hf")
        let tokens = (try #require(ann.token), try #require(bob.token))
        first?.stop()
        first = nil

        let second = try TestServer { $0.dataDirectory = data }
        defer { second.stop() }
        let back = try TestClient.joined(second, name: "ann", token: tokens.0)
        try back.settle()
        #expect(back.chatLines.map(\.text) == ["gl hf"], "a player mid-game reads the players' room only")
        let watcher = try TestClient.joined(second, name: "vic", role: .spectator)
        try watcher.settle()
        #expect(watcher.chatLines.map(\.text) == ["gl hf", "tense"])

        var said: [String] = []
        _ = try MatchReplay.open(data + "/m.jsonl").play({ _ in }, onChat: { said.append(ReplayText.describe($0)) })
        #expect(said == ["ann (players): gl hf", "eve (spectators): tense"])
    }

    @Test func anOperatorSilencesAnAddressWithoutARestartAndLiftsItAgain() throws {
        let data = NSTemporaryDirectory() + "setgame-chat-\(UUID().uuidString)"
        let server = try TestServer { $0.dataDirectory = data }
        defer { server.stop() }
        let (ann, bob, _) = try TestClient.duelWithSpectator(server)
        defer { withExtendedLifetime(bob) {} }
        #expect(try ann.say("before") == nil)
        try "# noisy\naddress 127.0.0.1\n".write(toFile: data + "/silenced", atomically: true, encoding: .utf8)
        server.advance(by: 1_000)
        let silenced = try #require(try ann.say("during"))
        #expect(silenced.code == .chatSilenced && !silenced.fatal)
        ann.send(.act(.claim, seat: nil), id: "c")
        _ = try ann.waitFor("ack: a silenced player still plays") { if case .ack("c", _) = $0 { true } else { nil } }
        try "# nobody now\n".write(toFile: data + "/silenced", atomically: true, encoding: .utf8)
        server.advance(by: 1_000)
        #expect(try ann.say("after") == nil)
        #expect(server.logLines.all.contains { $0.contains("1 address(es)") })
    }

    @Test func aLineTheJournalCannotRecordIsNotSaidAndSaidAgainOnceItCan() throws {
        let faults = JournalFaults()
        let server = try TestServer {
            $0.dataDirectory = NSTemporaryDirectory() + "setgame-chat-\(UUID().uuidString)"
            $0.journalFaults = faults
        }
        defer { server.stop() }
        let (ann, bob, _) = try TestClient.duelWithSpectator(server)
        faults.failing = true
        #expect(try ann.say("lost?")?.code == .journalFailed)
        faults.failing = false
        server.advance(by: 1_000)
        _ = try bob.awaitEvent("the match goes on") { if case .resumed = $0 { true } else { false } }
        #expect(try ann.say("lost?") == nil, "a refused line was not said, so it is no repeat")
        #expect(bob.chatLines.map(\.text) == [], "nothing unjournaled reached bob") 
        _ = try bob.awaitChat("lost?")
    }
}
