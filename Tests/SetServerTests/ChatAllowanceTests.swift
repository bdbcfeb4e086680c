import SetRules
import Testing
@testable import SetServer

/// The chat limits as pure values (issue 27): per person, a sliding window; per connection, no repeat.
struct ChatAllowanceTests {
    @Test func fiveLinesInAnyTenSecondsThenOneMoreAsEachLeavesTheWindow() {
        var allowance = ChatAllowance(lines: 5, windowMs: 10_000)
        let guest = ChatCounter(identity: .guest, hasAccount: false, address: "203.0.113.9")
        for second in 0..<5 { #expect(allowance.allow(by: guest, at: Instant(milliseconds: Int64(second) * 1_000)) == nil) }
        #expect(allowance.allow(by: guest, at: Instant(milliseconds: 9_999)) == 1)
        #expect(allowance.allow(by: ChatCounter(identity: .guest, hasAccount: false, address: "203.0.113.10"), at: Instant(milliseconds: 9_999)) == nil,
                "another address has its own")
        #expect(allowance.allow(by: guest, at: Instant(milliseconds: 10_000)) == nil)
        #expect(allowance.allow(by: guest, at: Instant(milliseconds: 10_001)) == 999)
    }

    @Test func aKnownIdentityIsOnePersonFromAnyAddress() {
        var allowance = ChatAllowance(lines: 1, windowMs: 10_000)
        let key = PlayerIdentity.sshKey(fingerprint: "SHA256:abc")
        #expect(allowance.allow(by: ChatCounter(identity: key, hasAccount: true, address: "a"), at: .zero) == nil)
        #expect(allowance.allow(by: ChatCounter(identity: key, hasAccount: true, address: "b"), at: .zero) != nil)
    }

    /// Issue 32 item 12: a key without an account is anyone's to invent, so it is counted by its
    /// address until it has played.
    @Test func aKeyWithoutAnAccountIsCountedByItsAddress() {
        let fresh = ChatCounter(identity: .accountKey(digest: "f00d"), hasAccount: false, address: "203.0.113.9")
        #expect(fresh == ChatCounter(identity: .accountKey(digest: "beef"), hasAccount: false, address: "203.0.113.9"))
        #expect(fresh == ChatCounter(identity: .guest, hasAccount: false, address: "203.0.113.9"))
        #expect(ChatCounter(identity: .accountKey(digest: "f00d"), hasAccount: true, address: "203.0.113.9") == .identity(.accountKey(digest: "f00d")))
        var allowance = ChatAllowance(lines: 5, windowMs: 10_000)
        for n in 0..<5 {
            let invented = ChatCounter(identity: .accountKey(digest: "key\(n)"), hasAccount: false, address: "203.0.113.9")
            #expect(allowance.allow(by: invented, at: .zero) == nil)
        }
        #expect(allowance.allow(by: ChatCounter(identity: .accountKey(digest: "key5"), hasAccount: false, address: "203.0.113.9"),
                                at: .zero) == 10_000, "a sixth invented key buys no sixth line")
    }

    @Test func peopleWhoseLinesLeftTheWindowAreForgottenSoManyAddressesCannotGrowItForever() {
        var allowance = ChatAllowance(lines: 5, windowMs: 10_000)
        for n in 0..<10_000 {
            _ = allowance.allow(by: ChatCounter(identity: .guest, hasAccount: false, address: "10.0.\(n / 256).\(n % 256)"),
                                at: Instant(milliseconds: Int64(n) * 100))
        }
        // A line every 100 ms: only the last 100 speakers are within the window; sweeps keep it near that.
        #expect(allowance.tracked <= 256)
    }

    @Test func aRepeatIsTheSameLineIgnoringCaseAndSpaces() {
        var last = ChatRepeat()
        #expect(!last.repeats("nice one", at: .zero, windowMs: 10_000))
        last.said("nice one", at: .zero)
        #expect(last.repeats("NICE ONE", at: .zero, windowMs: 10_000) && last.repeats("  nice  one ", at: .zero, windowMs: 10_000))
        #expect(!last.repeats("nice one wp", at: .zero, windowMs: 10_000))
    }

    /// Issue 32 item 14: what cannot be seen, case and compatibility forms do not make a line new.
    @Test func invisibleCharactersAndFullwidthFormsDoNotMakeARepeatNew() {
        var last = ChatRepeat()
        last.said("nice one", at: .zero)
        for disguised in ["nice\u{200B} one", "n\u{2060}ice\u{FEFF} one", "ＮＩＣＥ ｏｎｅ", "nice \u{00AD}one"] {
            #expect(last.repeats(disguised, at: Instant(milliseconds: 1), windowMs: 10_000), "\(disguised.unicodeScalars.map(\.value))")
        }
    }

    /// Issue 32 item 15: a repeat is refused within the window only (lila's flood rule), and a
    /// stock phrase not at all, so a house bot's "gg" after every game is said every time.
    @Test func aRepeatExpiresWithItsWindowAndStockPhrasesMayBeSaidAgain() {
        var last = ChatRepeat()
        last.said("nice one", at: .zero)
        #expect(last.repeats("nice one", at: Instant(milliseconds: 9_999), windowMs: 10_000))
        #expect(!last.repeats("nice one", at: Instant(milliseconds: 10_000), windowMs: 10_000))
        last.said("another", at: Instant(milliseconds: 1))
        #expect(last.repeats("nice one", at: Instant(milliseconds: 2), windowMs: 10_000), "either of the last two lines")
        last.said("a third", at: Instant(milliseconds: 3))
        #expect(!last.repeats("nice one", at: Instant(milliseconds: 4), windowMs: 10_000), "only the last two")
        for phrase in ["gg", "GG!", "gl hf", "Good game.", "ＧＧ", "g\u{200B}g", "thanks"] {
            var bot = ChatRepeat()
            bot.said(phrase, at: .zero)
            #expect(!bot.repeats(phrase, at: .zero, windowMs: 10_000), "\(phrase)")
        }
    }

    /// The stock phrases Protocol.md lists are the ones the server lets through, no more, no fewer.
    @Test func protocolListsTheStockPhrasesTheServerLetsThrough() throws {
        let document = ProtocolDocumentTests.document
        let start = try #require(document.range(of: "Stock phrases may be said again at any time: "))
        let end = try #require(document.range(of: ", with or without", range: start.upperBound..<document.endIndex))
        let listed = document[start.upperBound..<end.lowerBound].split(separator: "`", omittingEmptySubsequences: false).enumerated()
            .filter { $0.offset % 2 == 1 }.map { String($0.element) }
        #expect(Set(listed) == StockPhrase.all && listed.count == StockPhrase.all.count)
    }
}
