import SetNet
import SetRules
import SetServer
import SetWire
import Testing

/// Issue 45's scripted client over real sockets: bob, whose pongs make him look 160 ms away,
/// claims the moment he has received ann's `set_taken` and a pong of his own, on a clock that has
/// not moved. Saying what he saw (`seen`), his claim is for the new table and opens his window;
/// without it, the round-trip estimate takes it for a claim on the table ann took.
@Suite(.serialized) struct ClaimSeenServerTests {
    /// Ann takes a set, bob waits for her `set_taken` and a pong, then claims as `claim` says.
    func bobClaimsRightAfterAnnsSet(_ claim: (TestClient) -> ClientMessage) throws -> (TestClient, TestClient, TestServer) {
        let server = try TestServer { $0.lagCompensationMs = 200 }
        let (ann, bob) = try FairClaimServerTests().measuredDuel(server)
        ann.send(.act(.claim, seat: nil, seen: ann.view!.seq), id: .string("a"))
        try FairClaimServerTests().read(ann)
        server.advance(by: 160)  // ann's claim is held for bob's credit, then opens her window
        _ = try ann.waitFor("ann's ack") { if case .ack(.string("a"), _) = $0 { true } else { nil } }
        let trio = try #require(SetLogic.firstSet(in: ann.view!.table))
        for card in trio { ann.send(.act(.select(card), seat: nil)) }
        _ = try bob.awaitEvent("ann's set") { if case .rules(.setTaken) = $0 { true } else { false } }
        try FairClaimServerTests().read(bob)
        bob.send(claim(bob), id: .string("b"))
        return (ann, bob, server)
    }

    @Test func aClaimThatSaysItSawTheSetTakenIsForTheNewTable() throws {
        let (_, bob, server) = try bobClaimsRightAfterAnnsSet { .act(.claim, seat: nil, seen: $0.view!.seq) }
        defer { server.stop() }
        let answer = try bob.waitFor("bob's answer") { message -> String? in
            switch message {
            case .ack(.string("b"), _): "ack"
            case .error(let error, .string("b")): error.code.rawValue
            default: nil
            }
        }
        #expect(answer == "ack")
        #expect(bob.view?.window?.holder == .second)
    }

    @Test func withoutSeenTheEstimateStillDecides() throws {
        let (_, bob, server) = try bobClaimsRightAfterAnnsSet { _ in .act(.claim, seat: nil) }
        defer { server.stop() }
        let refused = try bob.awaitError(.claimTaken)
        #expect(refused.details["holder"] == .int(0))
    }
}
