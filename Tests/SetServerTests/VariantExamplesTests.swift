import Foundation
import SetRules
import SetServer
import SetWire
import Testing

/// Protocol.md's examples of the variants are what a real server says: each match below is played
/// on `setgame serve --seed 42` with the clock at 1000, and every line the document shows for it
/// must be there word for word. `SETGAME_RECORD_VARIANTS=FILE` writes the lines out, to refresh
/// the document after a deliberate change.
@Suite(.serialized) struct VariantExamplesTests {
    /// The lines of one variant's demo match: bob's first snapshot, ann's two picks (their
    /// `set_taken` and `table` events), bob's snapshot after them, and a classic join refused.
    func play(_ variant: Variant, on server: TestServer) throws -> [String] {
        let name = "\(variant.rawValue)-demo"
        let ann = try TestClient(port: server.port)
        _ = try ann.waitFor("welcome") { if case .welcome = $0 { true } else { nil } }
        ann.send(.join(JoinRequest(name: "ann", match: name, variant: variant)))
        _ = try ann.waitFor("snapshot") { if case .snapshot = $0 { true } else { nil } }
        let bob = try TestClient(port: server.port)
        _ = try bob.waitFor("welcome") { if case .welcome = $0 { true } else { nil } }
        bob.send(.join(JoinRequest(name: "bob", match: name)))
        _ = try bob.waitFor("snapshot") { if case .snapshot = $0 { true } else { nil } }
        var lines = [try #require(bob.lastLine)]
        try ann.awaitSeq(bob.view!.seq)
        for _ in 0..<2 {
            let pick = try #require(ann.view?.combinations.first)
            ann.send(.act(.claim, seat: nil))
            for card in pick { ann.send(.act(.select(card), seat: nil)) }
            _ = try ann.waitFor("set_taken") { if case .event(let event) = $0, case .rules(.setTaken) = event.body { true } else { nil } }
            lines.append(try #require(ann.lastLine))
            _ = try ann.awaitEvent("table") { if case .rules(.tableChanged) = $0 { true } else { false } }
            lines.append(try #require(ann.lastLine))
        }
        try bob.awaitSeq(ann.view!.seq)
        bob.send(.snapshot)
        _ = try bob.waitFor("snapshot") { if case .snapshot = $0 { true } else { nil } }
        lines.append(try #require(bob.lastLine))
        let cat = try TestClient(port: server.port)
        _ = try cat.waitFor("welcome") { if case .welcome = $0 { true } else { nil } }
        cat.send(.join(JoinRequest(name: "cat", match: name, variant: .classic)))
        _ = try cat.awaitError(.variantMismatch)
        lines.append(try #require(cat.lastLine))
        withExtendedLifetime((ann, bob)) {}
        return lines
    }

    @Test func theVariantExamplesInProtocolMdAreWhatTheServerSays() throws {
        let server = try TestServer { $0.seeds = .counting(from: 42) }
        defer { server.stop() }
        var lines: [String] = []
        for variant in [Variant.junior, .chain, .ultra] {
            lines += try play(variant, on: server)
        }
        let lister = try TestClient(port: server.port)
        _ = try lister.waitFor("welcome") { if case .welcome = $0 { true } else { nil } }
        lister.send(.list())
        _ = try lister.waitFor("matches") { if case .matches = $0 { true } else { nil } }
        lines.append(try #require(lister.lastLine))
        if let path = ProcessInfo.processInfo.environment["SETGAME_RECORD_VARIANTS"] {
            try? lines.joined(separator: "\n").write(toFile: path, atomically: true, encoding: .utf8)
        }
        let section = try #require(ProtocolDocumentTests.document.components(separatedBy: "## Variants: ").dropFirst().first)
        let shown = ProtocolDocumentTests.blocks("server").joined().filter { section.contains($0) && $0.contains("-demo") }
        #expect(shown.count >= 10, "the section shows the demo matches")
        let unsaid = shown.filter { !lines.contains($0) }
        #expect(unsaid.isEmpty, "Protocol.md shows lines the server does not say:\n\(unsaid.joined(separator: "\n"))")
    }
}
