import Foundation
import SetServer
import SetTestSupport
import Testing

/// Protocol.md's "Several servers (nodes)" transcript, replayed on two nodes sharing one
/// throwaway PostgreSQL: each line exactly as shown, the nodes' ports read as the document's.
@Suite(.serialized) struct NodeTranscriptTests {
    @Test func theNodesTranscriptIsWhatTwoNodesReallySay() throws {
        let scripts = ProtocolDocumentTests.blocks("nodes-transcript")
        #expect(scripts.count == 1)
        for script in scripts { try replay(script) }
    }

    func replay(_ script: [String]) throws {
        guard let database = try TestDatabase.make(.postgres) else { return }
        let nodes = ["a": try NodeServerTests.node("a", database), "b": try NodeServerTests.node("b", database)]
        defer { nodes.values.forEach { $0.stop() } }
        // The document's addresses: a at 7380, b at 7381.
        func documented(_ line: String) -> String {
            ProtocolDocumentTests.normalised(line
                .replacingOccurrences(of: "127.0.0.1:\(nodes["a"]!.port)\"", with: "127.0.0.1:7380\"")
                .replacingOccurrences(of: "127.0.0.1:\(nodes["b"]!.port)\"", with: "127.0.0.1:7381\""))
        }
        var clients: [String: TestClient] = [:]
        for line in script {
            if line.hasPrefix("~"), let space = line.firstIndex(of: " "), let node = nodes[String(line.dropFirst().prefix(upTo: space))],
               let ms = Int64(line[line.index(after: space)...]) {
                node.advance(by: ms)
                continue
            }
            // "A@a> …": client A, on node a, sends; "A@a< …": it receives.
            let parts = line.split(separator: " ", maxSplits: 1).map(String.init)
            guard parts.count == 2, parts[0].count == 4, let arrow = parts[0].last, let node = nodes[String(parts[0].dropLast().suffix(1))] else {
                Issue.record("not a transcript line: \(line)")
                continue
            }
            let label = String(parts[0].prefix(1))
            let client = try clients[label] ?? TestClient(port: node.port)
            clients[label] = client
            if arrow == ">" {
                client.sendRaw(parts[1] + "\n")
            } else {
                _ = try client.next("line for \(label)")
                let actual = try #require(client.lastLine)
                if parts[1] != "?" { #expect(documented(actual) == ProtocolDocumentTests.normalised(parts[1])) }
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
