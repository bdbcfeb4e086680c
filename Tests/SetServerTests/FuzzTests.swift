import SetNet
import SetRules
import SetServer
import SetWire
import Testing

/// Seeded garbage over a real socket from a player seated in a live duel: one coded, non-fatal
/// error per bad line, nothing for a blank one, the connection stays open, and the match is
/// exactly as it was.
@Suite(.serialized) struct FuzzTests {
    /// What the server must answer to one line.
    enum Answer: Equatable {
        case nothing
        case error(ErrorCode)
        /// The line is a request the server would carry out; it is not sent.
        case accepted
    }

    static let templates: [String] = [
        #"{"type":"join","name":"ann","match":"m","role":"player","mode":"duel","seat":0,"token":"5c90c98e188c0aff9f13e8351c8397c8","lastSeq":17,"protocol":1,"id":1}"#,
        #"{"type":"select","card":9,"seat":0,"id":"s1"}"#, #"{"type":"select","card":"2 striped green diamonds"}"#,
        #"{"type":"claim","seat":0,"id":2}"#, #"{"type":"deal","seat":1}"#, #"{"type":"hint","id":"h"}"#,
        #"{"type":"pass","seat":0}"#, #"{"type":"resign","seat":1,"id":6}"#, #"{"type":"rematch"}"#,
        #"{"type":"ping","time":42,"id":8}"#, #"{"type":"list","id":"l"}"#, #"{"type":"snapshot","id":9}"#,
    ]

    static let oddValues: [String] = [
        "null", "true", "[]", "{}", "-1", "2", "81", "99", "1.5", "1e400", "99999999999999999999", "-9223372036854775808",
        "\"\"", "\"x\"", "\" ann\"", "\"\\u0000\"", "\"\\ud800\"", "\"referee\"", "\"-9223372036854775808 solid red diamonds\"",
        "\"" + String(repeating: "✓", count: 2_000) + "\"", String(repeating: "[", count: 40) + String(repeating: "]", count: 40),
    ]

    static let interesting: [UInt8] = Array("[]{}\":,\\u0123456789-.eE \t\r".utf8) + [0x00, 0x7F, 0x80, 0xC3, 0xED, 0xF0, 0xFF]

    /// One line of trouble (never containing a newline), or now and then one that is fine.
    static func garbageLine(_ random: inout SplitMix64) -> [UInt8] {
        func pick<T>(_ items: [T]) -> T { items[random.uniform(below: items.count)] }
        var bytes = Array(pick(templates).utf8)
        switch random.uniform(below: 9) {
        case 0:
            bytes = (0..<random.uniform(below: 50)).map { _ in random.next() & 1 == 0 ? UInt8(truncatingIfNeeded: random.next()) : pick(interesting) }
        case 1, 2:  // one value replaced: find a ':' and swap what follows up to the next ',' or '}'
            let colons = bytes.indices.filter { bytes[$0] == 0x3A }
            let start = pick(colons) + 1
            let end = bytes[start...].firstIndex { $0 == 0x2C || $0 == 0x7D } ?? bytes.count
            bytes.replaceSubrange(start..<end, with: Array(pick(oddValues).utf8))
        case 3:
            bytes.removeLast(1 + random.uniform(below: bytes.count - 1))
        case 4, 5:
            for _ in 0..<(1 + random.uniform(below: 3)) {
                let at = random.uniform(below: bytes.count)
                if random.next() & 1 == 0 { bytes[at] = pick(interesting) } else { bytes.insert(UInt8(truncatingIfNeeded: random.next()), at: at) }
            }
        case 6:
            let depth = random.uniform(below: 100)
            bytes = Array(String(repeating: "[", count: depth).utf8) + bytes + Array(String(repeating: "]", count: random.uniform(below: depth + 2)).utf8)
        case 7:  // huge: some lines pass the 4,096-byte limit
            let digits = String(repeating: "9", count: random.uniform(below: 6_000))
            bytes = Array(pick(["{\"type\":\"ping\",\"time\":\(digits)}", "{\"type\":\"join\",\"name\":\"\(digits)\"}", "{\"type\":\"select\",\"card\":\"\(digits) open red ovals\"}", "   "]).utf8)
        default:
            bytes.insert(contentsOf: pick([[0xFF], [0xC3], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80], [0xC0, 0xAF]]), at: 1 + random.uniform(below: bytes.count - 1))
        }
        bytes.removeAll { $0 == 0x0A }
        return bytes
    }

    /// The answer the protocol promises to seat 0 of a duel with no window open, worked out from
    /// the line reader, the decoder and a referee holding the same deal as the server.
    static func answer(to line: [UInt8], referee: Match) -> Answer {
        var reader = LineReader(maxLineBytes: ServerLimits().maxLineBytes)
        guard let framed = reader.feed(line + [0x0A]).first else { return .nothing }
        switch framed {
        case .tooLong: return .error(.lineTooLong)
        case .invalidUTF8: return .error(.invalidUTF8)
        case .complete(let bytes):
            if !String(decoding: bytes, as: UTF8.self).contains(where: { !$0.isWhitespace }) { return .nothing }
            switch ClientMessageDecoder.decode(bytes) {
            case .failure(let error): return .error(error.code)
            case .success(let request):
                switch request.message {
                case .join: return .error(.alreadyJoined)
                case .door: return .error(.notADoor)  // a TCP client may not speak for anyone
                // A seated connection is in no lobby.
                case .lobby(.enter): return .error(.alreadyJoined)
                case .lobby: return .error(.notInLobby)
                // The server holds no arenas yet (Server+Arena).
                case .arena: return .error(.unknownType)
                case .ping, .pong, .list, .snapshot, .health: return .accepted
                // No seed line is a chat, and no mutation makes one (it needs a "text").
                case .chat: return .accepted
                // A guest's server holds no accounts: every named player is unknown.
                case .account(.leaderboard): return .accepted
                case .account(.history(nil, _, _, _)): return .error(.missingField)
                case .account: return .error(.noSuchPlayer)
                case .act(_, .some(.second), _): return .error(.notYourSeat)
                case .act(let action, _, _):
                    var trial = referee
                    guard let refusal = trial.apply(action, by: .first, at: referee.startedAt).refusal else { return .accepted }
                    return .error(ErrorCode(refusal))
                }
            }
        }
    }

    @Test func garbageFromASeatedPlayerGetsOneCodedErrorPerLineAndChangesNothing() throws {
        let server = try TestServer { $0.limits.messageBurst = 1_000_000 }  // the manual clock never refills it
        defer { server.stop() }
        let (ann, bob) = try TestClient.duel(server)
        ann.send(.snapshot)
        let before = try ann.waitFor("snapshot") { if case .snapshot(let view) = $0 { view } else { nil } }
        let referee = Match(mode: .duel, seed: 1, at: Instant(milliseconds: 1_000))
        #expect(referee.table == before.table && before.phase == .playing)

        var random = SplitMix64(seed: 0xBAD_11E5)
        var sent = 0, blank = 0, skipped = 0
        var codes: [ErrorCode: Int] = [:]
        for batch in 1...100 {
            var expected: [ErrorCode] = []
            var payload: [UInt8] = []
            var lines = 0
            while lines < 50 {
                let line = Self.garbageLine(&random)
                switch Self.answer(to: line, referee: referee) {
                case .accepted: skipped += 1; continue
                case .nothing: blank += 1
                case .error(let code): expected.append(code)
                }
                lines += 1
                payload += line + [0x0A]
            }
            sent += lines
            ann.sendRaw(payload)
            ann.send(.ping(time: Int64(batch)))
            var got: [ErrorCode] = []
            while true {
                let message = try ann.next("the errors of batch \(batch)")
                if case .pong(_, Int64(batch), _) = message { break }
                guard case .error(let error, _) = message else {
                    Issue.record("batch \(batch): not an error: \(ann.lastLine ?? "")")
                    continue
                }
                #expect(!error.fatal && !error.message.isEmpty, "\(ann.lastLine ?? "")")
                got.append(error.code)
                codes[error.code, default: 0] += 1
            }
            #expect(got == expected, "batch \(batch)")
        }

        ann.send(.snapshot)
        let after = try ann.waitFor("snapshot") { if case .snapshot(let view) = $0 { view } else { nil } }
        #expect(after == before)
        bob.send(.ping(time: 7))
        #expect(try bob.next("pong") == .pong(time: 1_000, clientTime: 7, id: nil), "bob saw something happen")
        // And ann still plays.
        ann.send(.act(.claim, seat: nil), id: "last")
        _ = try bob.awaitEvent("ann's claim") { if case .rules(.windowOpened(let window)) = $0 { window.holder == .first } else { false } }
        #expect(!server.logLines.all.contains { $0.contains("closing") })
        #expect(sent == 5_000 && blank > 0 && skipped > 0)
        #expect(codes.count >= 12, "\(codes)")
    }
}
