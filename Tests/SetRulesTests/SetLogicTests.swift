import Testing
@testable import SetRules

@Suite struct SetLogicTests {
    /// The definition, feature by feature, written the slow way as an oracle.
    func isSetByDefinition(_ a: Card, _ b: Card, _ c: Card) -> Bool {
        func ok<T: Equatable>(_ x: T, _ y: T, _ z: T) -> Bool { (x == y && y == z) || (x != y && y != z && x != z) }
        return ok(a.number, b.number, c.number) && ok(a.shape, b.shape, c.shape)
            && ok(a.shading, b.shading, c.shading) && ok(a.colour, b.colour, c.colour)
    }

    @Test func exactly1080SetsAmongAll85320Triples() {
        var triples = 0, sets = 0
        let cards = Card.all
        for i in 0..<81 {
            for j in (i + 1)..<81 {
                for k in (j + 1)..<81 {
                    triples += 1
                    let fast = SetLogic.isSet(cards[i], cards[j], cards[k])
                    #expect(fast == isSetByDefinition(cards[i], cards[j], cards[k]))
                    if fast { sets += 1 }
                }
            }
        }
        #expect(triples == 85_320)
        #expect(sets == 1_080)
    }

    @Test func everyPairHasExactlyOneCompletingCardDistinctFromBoth() {
        for a in Card.all {
            for b in Card.all where a != b {
                let c = SetLogic.completing(a, b)
                #expect(c != a && c != b)
                #expect(SetLogic.isSet(a, b, c))
                let completers = Card.all.filter { SetLogic.isSet(a, b, $0) }
                #expect(completers == [c])
            }
        }
    }

    @Test func aCardRepeatedIsNeverASet() {
        let a = Card.all[5], b = Card.all[40]
        #expect(!SetLogic.isSet(a, a, a))
        #expect(!SetLogic.isSet(a, a, b))
        #expect(!SetLogic.isSet([a, b]))
    }

    @Test func aSetFreeTableOf20ExistsAndAnySetSaysNo() {
        #expect(Swift.Set(setFreeTwenty).count == 20)
        for i in 0..<20 { for j in (i + 1)..<20 { for k in (j + 1)..<20 {
            #expect(!isSetByDefinition(setFreeTwenty[i], setFreeTwenty[j], setFreeTwenty[k]))
        } } }
        #expect(!SetLogic.anySet(in: setFreeTwenty))
        #expect(SetLogic.allSets(in: setFreeTwenty).isEmpty)
        #expect(SetLogic.firstSet(in: setFreeTwenty) == nil)
    }

    @Test func any21CardsHoldASet() {
        var generator = SplitMix64(seed: 21)
        for _ in 0..<200 {
            let table = Array(Deck(seed: generator.next()).cards.prefix(21))
            #expect(SetLogic.anySet(in: table))
        }
        for extra in Card.all where !setFreeTwenty.contains(extra) {
            #expect(SetLogic.anySet(in: setFreeTwenty + [extra]))
        }
    }

    @Test func allSetsAgreesWithBruteForceOnRandomTables() {
        var generator = SplitMix64(seed: 7)
        for size in [0, 1, 2, 3, 12, 15, 21, 40, 81] {
            for _ in 0..<20 {
                let table = Array(Deck(seed: generator.next()).cards.prefix(size))
                var expected: [[Card]] = []
                for i in table.indices { for j in (i + 1)..<table.count { for k in (j + 1)..<table.count
                    where isSetByDefinition(table[i], table[j], table[k]) {
                    expected.append([table[i], table[j], table[k]])
                } } }
                let found = SetLogic.allSets(in: table)
                #expect(found.map { Swift.Set($0) }.sorted(by: { $0.map(\.id).sorted().lexicographicallyPrecedes($1.map(\.id).sorted()) })
                        == expected.map { Swift.Set($0) }.sorted(by: { $0.map(\.id).sorted().lexicographicallyPrecedes($1.map(\.id).sorted()) }))
                #expect(SetLogic.anySet(in: table) == !expected.isEmpty)
                if let first = SetLogic.firstSet(in: table) {
                    #expect(SetLogic.isSet(first) && first.allSatisfy(table.contains))
                }
            }
        }
    }

    @Test func theWholeDeckHolds1080Sets() {
        #expect(SetLogic.allSets(in: Card.all).count == 1_080)
    }
}
