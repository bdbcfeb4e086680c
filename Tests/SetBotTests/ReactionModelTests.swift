import SetBot
import SetRules
import Testing

@Suite struct ReactionModelTests {
    func sample(_ model: ReactionModel, sets: Int, count: Int = 20_000, seed: UInt64 = 9) -> (mean: Double, deviation: Double) {
        var generator = SplitMix64(seed: seed)
        let delays = (0..<count).map { _ in Double(model.delayMs(sets: sets, using: &generator)) }
        let mean = delays.reduce(0, +) / Double(count)
        let variance = delays.map { ($0 - mean) * ($0 - mean) }.reduce(0, +) / Double(count - 1)
        return (mean, variance.squareRoot())
    }

    @Test(arguments: [BotLevel.easy, .normal, .hard])
    func delaysHaveTheDeclaredMeanAndSpread(level: BotLevel) {
        let model = ReactionModel(level: level)
        for sets in [0, 1, 4] {
            let (mean, deviation) = sample(model, sets: sets)
            #expect(abs(mean / model.meanMs(sets: sets) - 1) < 0.03, "\(level) sets=\(sets) mean \(mean)")
            #expect(abs(deviation / model.standardDeviationMs(sets: sets) - 1) < 0.08, "\(level) sets=\(sets) sd \(deviation)")
        }
    }

    @Test func moreSetsAreSpottedSoonerAndNoneTakesLongest() {
        let model = ReactionModel(level: .normal)
        #expect(model.meanMs(sets: 0) > model.meanMs(sets: 1))
        #expect(model.meanMs(sets: 1) > model.meanMs(sets: 2))
        #expect(model.meanMs(sets: 2) > model.meanMs(sets: 6))
    }

    @Test func strongerLevelsReactFaster() {
        let means = [BotLevel.easy, .normal, .hard, .instant].map { ReactionModel(level: $0).meanMs(sets: 1) }
        #expect(means == means.sorted(by: >))
        #expect(means.last == 0)
    }

    @Test func instantNeverWaits() {
        var generator = SplitMix64(seed: 1)
        let model = ReactionModel(level: .instant)
        #expect((0..<100).allSatisfy { _ in model.delayMs(sets: 3, using: &generator) == 0 })
    }
}
