import SetRules
import SetWire
import Testing

/// How variants travel: named only when not classic, so classic lines stay as they were.
@Suite struct VariantWireTests {
    func line(_ message: ServerMessage) -> String { String(decoding: ServerMessageCoding.line(message).dropLast(), as: UTF8.self) }

    func view(_ variant: Variant, chain: [Card] = []) -> MatchView {
        MatchView(match: "m", seq: 3, time: 10, mode: .duel, phase: .playing, game: 1, players: [], spectators: 0,
                  table: Array(Card.all.prefix(12)), deck: 69, selection: [], selectionSeat: nil, window: nil, shown: nil,
                  tableChangedAt: 10, rules: .standard, commitment: "c", result: nil, seed: nil, rematchAsked: [],
                  setsOnTable: nil, variant: variant, chain: chain)
    }

    @Test func aJoinNamesItsVariantOnlyWhenAskedAndAnUnknownOneIsABadField() throws {
        let asked = ClientRequest(.join(JoinRequest(name: "ann", match: "m", variant: .chain)))
        let bytes = ClientMessageEncoder.line(asked)
        #expect(String(decoding: bytes, as: UTF8.self).contains(#""variant":"chain""#))
        #expect(try ClientMessageDecoder.decode(Array(bytes.dropLast())).get() == asked)
        let plain = ClientMessageEncoder.line(ClientRequest(.join(JoinRequest(name: "ann"))))
        #expect(!String(decoding: plain, as: UTF8.self).contains("variant"))
        guard case .failure(let error) = ClientMessageDecoder.decode(Array(#"{"type":"join","name":"a","variant":"poker"}"#.utf8))
        else { Issue.record("accepted an unknown variant"); return }
        #expect(error.code == .badField && error.details["field"] == .string("variant"))
    }

    @Test func snapshotsAndListingsNameAVariantAndSetChainItsChain() throws {
        let classic = line(.snapshot(view(.classic)))
        #expect(!classic.contains("variant") && !classic.contains("chain"))
        let chain = Array(Card.all.suffix(3))
        let chained = line(.snapshot(view(.chain, chain: chain)))
        #expect(chained.contains(#""chain":[78,79,80]"#) && chained.contains(#""variant":"chain""#))
        #expect(!line(.snapshot(view(.ultra))).contains("chain"))
        for sample in [view(.junior), view(.chain, chain: chain), view(.ultra), view(.classic)] {
            #expect(try ServerMessageCoding.decode(ServerMessageCoding.line(.snapshot(sample)).dropLast().map { $0 }).get() == .snapshot(sample))
        }
        let listing = MatchListing(name: "m", mode: .duel, phase: .waiting, players: [], spectators: 0, variant: .junior)
        let listed = line(.matches([listing], next: nil, id: nil))
        #expect(listed.contains(#""variant":"junior""#))
        #expect(try ServerMessageCoding.decode(Array(listed.utf8)).get() == .matches([listing], next: nil, id: nil))
        let plain = MatchListing(name: "m", mode: .duel, phase: .waiting, players: [], spectators: 0)
        #expect(!line(.matches([plain], next: nil, id: nil)).contains("variant"))
    }

    @Test func aViewFollowsTheChainFromTheSetsTakenAndForgetsItOnANewGame() {
        var chained = view(.chain)
        let set = SetLogic.allSets(in: chained.table)[0]
        func event(_ seq: Int, _ body: EventBody) -> WireEvent { WireEvent(match: "m", seq: seq, time: 20, body: body) }
        let taken = chained.apply(event(4, .rules(.setTaken(seat: .first, cards: set, points: 30, score: 30))))
        #expect(taken && chained.chain == set)
        let restarted = chained.apply(event(5, .gameStarted(GameStart(game: 2, table: chained.table, deck: 69, scores: [0, 0], commitment: "d"))))
        #expect(restarted && chained.chain.isEmpty)
        var classic = view(.classic)
        let classicTaken = classic.apply(event(4, .rules(.setTaken(seat: .first, cards: set, points: 30, score: 30))))
        #expect(classicTaken)
        #expect(classic.chain.isEmpty, "only Set-Chain keeps a chain")
    }
}
