import Foundation
import SetNet
import SetServer
import SetWire
import Testing

/// Protocol.md is the contract: its examples are checked against the code, and its transcript
/// is replayed against a real server, which must answer with exactly the lines shown.
@Suite(.serialized) struct ProtocolDocumentTests {
    static let document: String = {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        return (try? String(contentsOf: root.appendingPathComponent("Protocol.md"), encoding: .utf8)) ?? ""
    }()

    /// The lines of every fenced block whose info string is `tag`.
    static func blocks(_ tag: String) -> [[String]] {
        var blocks: [[String]] = [], current: [String]?
        for line in document.components(separatedBy: "\n") {
            if current == nil, line == "```" + tag { current = [] } else if current != nil, line == "```" {
                blocks.append(current!)
                current = nil
            } else if current != nil { current!.append(line) }
        }
        return blocks
    }

    /// Tokens are random: compare their secret as a placeholder (the match they name is not).
    static func normalised(_ line: String) -> String {
        line.replacingOccurrences(of: #""token":"([A-Za-z0-9._-]+~)?[0-9a-f]{32}""#, with: #""token":"$1TOKEN""#, options: .regularExpression)
            // A history's dates are the wall clock's, which no example can pin.
            .replacingOccurrences(of: #""wall":[0-9]+"#, with: #""wall":WALL"#, options: .regularExpression)
            // So are an arena's start and end (the store's wall clock moved to the server's).
            .replacingOccurrences(of: #""(startsAt|endsAt)":[0-9]+"#, with: #""$1":WALL"#, options: .regularExpression)
    }

    @Test func theDocumentHasExamplesOfEveryKind() {
        #expect(Self.blocks("client").joined().count >= 12)
        #expect(Self.blocks("server").joined().count >= 10)
        #expect(Self.blocks("transcript").count >= 2)
    }

    /// A stranger writes a client from the examples: every request type, server message type
    /// and event kind has one.
    @Test func everyTypeAndKindHasAnExample() {
        var requests: Set<RequestType> = [], messages: Set<ServerMessageType> = [], kinds: Set<EventKind> = []
        for line in Self.blocks("client").joined() {
            guard case .success(let request) = ClientMessageDecoder.decode(Array(line.utf8)) else { continue }
            switch request.message {
            case .join: requests.insert(.join)
            case .list: requests.insert(.list)
            case .snapshot: requests.insert(.snapshot)
            case .ping: requests.insert(.ping)
            case .door: requests.insert(.door)
            case .pong: requests.insert(.pong)
            case .act(let action, _, _): requests.insert(RequestType(action))
            case .chat: requests.insert(.chat)
            case .account(let query): if let type = RequestType(rawValue: query.type.rawValue) { requests.insert(type) }
            case .lobby(let asked): requests.insert(asked.type)
            case .health: requests.insert(.health)
            case .arena(let asked): requests.insert(asked.type)
            }
        }
        for line in Self.blocks("server").joined() {
            guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else { continue }
            if let type = (object["type"] as? String).flatMap(ServerMessageType.init) { messages.insert(type) }
            if let kind = (object["kind"] as? String).flatMap(EventKind.init) { kinds.insert(kind) }
        }
        #expect(requests == Set(RequestType.allCases), "no client example of \(Set(RequestType.allCases).subtracting(requests))")
        #expect(messages == Set(ServerMessageType.allCases), "no server example of \(Set(ServerMessageType.allCases).subtracting(messages))")
        #expect(kinds == Set(EventKind.allCases), "no event example of \(Set(EventKind.allCases).subtracting(kinds))")
    }

    @Test func everyClientExampleDecodes() {
        for line in Self.blocks("client").joined() where !line.isEmpty {
            let result = ClientMessageDecoder.decode(Array(line.utf8))
            if case .failure(let error) = result { Issue.record("\(line): \(error.message)") }
        }
    }

    @Test func everyServerExampleIsExactlyWhatTheEncoderWrites() {
        for line in Self.blocks("server").joined() where !line.isEmpty {
            switch ServerMessageCoding.decode(Array(line.utf8)) {
            case .failure(let error): Issue.record("\(line): \(error.message)")
            case .success(let message):
                let written = String(decoding: ServerMessageCoding.line(message).dropLast(), as: UTF8.self)
                #expect(written == line)
            }
        }
    }

    /// Every transcript, each on a server of its own.
    @Test func theTranscriptIsWhatTheServerReallySays() throws {
        for (index, script) in Self.blocks("transcript").enumerated() {
            try replay(script, recordingAs: index)
        }
    }

    func replay(_ script: [String], recordingAs index: Int) throws {
        let server = try TestServer { $0.seeds = .counting(from: 42) }
        defer { server.stop() }
        var clients: [String: TestClient] = [:]
        // The token each client was last told by an `arena_pairing`: its `join` sends it where the
        // document writes `TOKEN`.
        var told: [String: String] = [:]
        var recorded: [String] = []
        defer {
            if let path = ProcessInfo.processInfo.environment["SETGAME_RECORD_TRANSCRIPT"] {
                try? recorded.joined(separator: "\n").write(toFile: "\(path).\(index)", atomically: true, encoding: .utf8)
            }
        }
        for line in script {
            if line.hasPrefix("~ "), let ms = Int64(line.dropFirst(2)) {
                server.advance(by: ms)
                recorded.append(line)
                continue
            }
            guard line.count > 3, line.dropFirst().first == "<" || line.dropFirst().first == ">" else {
                recorded.append(line)
                continue
            }
            let label = String(line.prefix(1)), body = String(line.dropFirst(3))
            let client = try clients[label] ?? TestClient(port: server.port)
            clients[label] = client
            if line.dropFirst().first == ">" {
                let sent = told[label].map { body.replacingOccurrences(of: #""token":"TOKEN""#, with: #""token":"\#($0)""#) } ?? body
                client.sendRaw(sent + "\n")
                recorded.append(line)
            } else {
                let heard = try client.next("line for \(label)")
                let actual = try #require(client.lastLine)
                if case .arenaPairing(let notice) = heard { told[label] = notice.token }
                recorded.append("\(label)< \(actual)")
                if body != "?" { #expect(Self.normalised(actual) == Self.normalised(body)) }
            }
        }
        // Nothing the document does not show: each client's next line answers a fresh ping.
        for (label, client) in clients.sorted(by: { $0.key < $1.key }) {
            client.sendRaw(#"{"type":"ping","time":777}"# + "\n")
            let next = try client.next("pong for \(label)")
            #expect(next == .pong(time: next.pongTime ?? 0, clientTime: 777, id: nil), "\(label) had an unshown line: \(client.lastLine ?? "")")
        }
    }
}

extension ServerMessage {
    var pongTime: Int64? {
        if case .pong(let time, _, _) = self { return time }
        return nil
    }
}
