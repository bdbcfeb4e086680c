import SetRules
import Testing
@testable import SetServer

/// The chat limits as pure values (issue 27): per person, a sliding window; per connection, no repeat.
struct ChatAllowanceTests {
    @Test func fiveLinesInAnyTenSecondsThenOneMoreAsEachLeavesTheWindow() {
        var allowance = ChatAllowance(lines: 5, windowMs: 10_000)
        let guest = ChatCounter(identity: .guest, address: "203.0.113.9")
        for second in 0..<5 { #expect(allowance.allow(by: guest, at: Instant(milliseconds: Int64(second) * 1_000)) == nil) }
        #expect(allowance.allow(by: guest, at: Instant(milliseconds: 9_999)) == 1)
        #expect(allowance.allow(by: ChatCounter(identity: .guest, address: "203.0.113.10"), at: Instant(milliseconds: 9_999)) == nil,
                "another address has its own")
        #expect(allowance.allow(by: guest, at: Instant(milliseconds: 10_000)) == nil)
        #expect(allowance.allow(by: guest, at: Instant(milliseconds: 10_001)) == 999)
    }

    @Test func aKnownIdentityIsOnePersonFromAnyAddress() {
        var allowance = ChatAllowance(lines: 1, windowMs: 10_000)
        let key = PlayerIdentity.sshKey(fingerprint: "SHA256:abc")
        #expect(allowance.allow(by: ChatCounter(identity: key, address: "a"), at: .zero) == nil)
        #expect(allowance.allow(by: ChatCounter(identity: key, address: "b"), at: .zero) != nil)
    }

    @Test func peopleWhoseLinesLeftTheWindowAreForgottenSoManyAddressesCannotGrowItForever() {
        var allowance = ChatAllowance(lines: 5, windowMs: 10_000)
        for n in 0..<10_000 {
            _ = allowance.allow(by: ChatCounter(identity: .guest, address: "10.0.\(n / 256).\(n % 256)"),
                                at: Instant(milliseconds: Int64(n) * 100))
        }
        // A line every 100 ms: only the last 100 speakers are within the window; sweeps keep it near that.
        #expect(allowance.tracked <= 256)
    }

    @Test func aRepeatIsTheSameLineIgnoringCaseAndSpaces() {
        var last = ChatRepeat()
        #expect(!last.repeats("gg"))
        last.said("gg")
        #expect(last.repeats("GG") && last.repeats("  gg "))
        #expect(!last.repeats("gg wp"))
    }
}
