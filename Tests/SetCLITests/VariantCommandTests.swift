import SetRules
import Testing
@testable import SetCLI

/// `--mode M` chooses the variant wherever a match is made or its rules are read.
@Suite struct VariantCommandTests {
    @Test func modeIsParsedForEveryCommandThatMakesAMatch() throws {
        guard case .join(let join) = try Commands.parse(["join", "--mode", "ultra"]) else { Issue.record("not join"); return }
        #expect(join.variant == .ultra)
        guard case .join(let plain) = try Commands.parse(["join"]) else { Issue.record("not join"); return }
        #expect(plain.variant == nil, "without --mode a join plays whatever the match plays")
        guard case .play(let play) = try Commands.parse(["play", "--mode=chain", "--solo"]) else { Issue.record("not play"); return }
        #expect(play.variant == .chain && play.solo)
        guard case .bot(let bot, _) = try Commands.parse(["bot", "--mode", "junior"]) else { Issue.record("not bot"); return }
        #expect(bot.variant == .junior)
        guard case .bench(let bench) = try Commands.parse(["bench", "--mode", "ultra"]) else { Issue.record("not bench"); return }
        #expect(bench.variant == .ultra)
        #expect(try Commands.parse(["rules", "--mode", "junior"]) == .rules(.standard, variant: .junior))
        #expect(try Commands.parse(["rules"]) == .rules(.standard, variant: .classic))
    }

    @Test func anUnknownModeIsAUsageErrorListingTheChoices() {
        #expect(throws: UsageError("--mode must be one of classic, junior, chain, ultra, not 'poker'", command: "play")) {
            try Commands.parse(["play", "--mode", "poker"])
        }
        #expect(throws: UsageError.self) { try Commands.parse(["watch", "--mode", "ultra"]) }
    }
}
