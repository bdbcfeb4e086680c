import Foundation
import SetRatings
@testable import SetServer
import SetNet
import SetRules
import Testing

@Suite struct ServerPartsTests {
    @Test func theRateLimiterAllowsABurstThenRefillsOverTime() {
        var limiter = RateLimiter(perSecond: 10, burst: 3, at: Instant(milliseconds: 0))
        func allowed(at ms: Int64, times: Int) -> [Bool] {
            (0..<times).map { _ in limiter.allow(at: Instant(milliseconds: ms)) }
        }
        #expect(allowed(at: 0, times: 4) == [true, true, true, false])
        #expect(allowed(at: 99, times: 1) == [false])
        #expect(allowed(at: 100, times: 2) == [true, false])
        // Never more than the burst, however long it waited.
        #expect(allowed(at: 60_000, times: 4) == [true, true, true, false])
    }

    @Test func theDeadlineQueuePopsInOrderAndOnlyWhatIsDue() {
        var queue = DeadlineQueue<Int>()
        var generator = SplitMix64(seed: 5)
        var deadlines: [Int64] = []
        for key in 0..<200 {
            let deadline = Int64(generator.uniform(below: 10_000))
            deadlines.append(deadline)
            queue.add(key, at: Instant(milliseconds: deadline))
        }
        #expect(queue.earliest == Instant(milliseconds: deadlines.min()!))
        func popped(at milliseconds: Int64) -> [(key: Int, deadline: Instant)] {
            var due: [(key: Int, deadline: Instant)] = []
            queue.popDue(at: Instant(milliseconds: milliseconds)) { due.append((key: $0, deadline: $1)) }
            return due
        }
        var keysOnly = queue
        let due = popped(at: 5_000)
        #expect(keysOnly.popDueKeys(at: Instant(milliseconds: 5_000)) == due.map(\.key))
        #expect(keysOnly.popDueKeys(at: Instant(milliseconds: 5_000)).isEmpty)
        #expect(keysOnly.count == queue.count)
        #expect(due.map { deadlines[$0.key] } == deadlines.filter { $0 <= 5_000 }.sorted())
        #expect(due.allSatisfy { $0.deadline.milliseconds == deadlines[$0.key] })
        #expect(queue.count == deadlines.filter { $0 > 5_000 }.count)
        #expect(queue.earliest == deadlines.filter { $0 > 5_000 }.min().map { Instant(milliseconds: $0) })
        #expect(popped(at: 5_000).isEmpty)
        let remaining = queue.count
        let rest = popped(at: 10_000)
        #expect(rest.count == remaining)
        #expect(rest.map { deadlines[$0.key] } == deadlines.filter { $0 > 5_000 }.sorted())
        #expect(queue.earliest == nil)
    }

    @Test func seatTokensAre128RandomBitsInHex() {
        let tokens = (0..<100).map { _ in SeatToken.make() }
        #expect(tokens.allSatisfy { $0.count == 32 && $0.allSatisfy(\.isHexDigit) })
        #expect(Set(tokens).count == 100)
    }
}

@Suite struct JournalRecordTests {
    @Test func directlyWrittenRecordsMatchTheGenericEncoderAndReadBack() throws {
        let records: [JournalRecord] = [
            .acted(seat: .second, action: .select(Card.all[80]), seq: 12, at: Instant(milliseconds: 99)),
            .acted(seat: .first, action: .claim, seq: 0, at: Instant(milliseconds: -3)),
            .acted(seat: .first, action: .rematch, seq: 7, at: .zero),
            .tick(seq: 1_000_000, at: Instant(milliseconds: 5)),
        ]
        for record in records {
            #expect(record.encoded() == record.genericEncoded())
            #expect(try JournalRecord.decode(Array(record.encoded().dropLast())) == record)
        }
        let others: [JournalRecord] = [
            .header(name: "m", mode: .solo, rules: .standard), .seated(seat: .first, name: "ä\"", token: "t", at: .zero),
            .game(number: 2, seed: .max, commitment: "c", at: .zero), .away(seat: .second, at: .zero), .back(seat: .first, at: .zero),
            .seated(seat: .second, name: "bob", token: "t", at: .zero, account: SeatAccount(id: 7, casual: false),
                    rating: Rating(rating: 1_523.456_789_012_3, deviation: 87.25, volatility: 0.060_000_1)),
            .seated(seat: .second, name: "bob", token: "t", at: .zero, account: SeatAccount(id: 7, casual: true), rating: .initial),
        ]
        for record in others { #expect(try JournalRecord.decode(Array(record.encoded().dropLast())) == record) }
        // A crafted rating out of any range a rating reaches is refused, not trapped on.
        let valid = String(decoding: JournalRecord.seated(seat: .second, name: "bob", token: "t", at: .zero,
                                                          account: SeatAccount(id: 7, casual: false), rating: .initial).encoded().dropLast(), as: UTF8.self)
        let crafted = valid.replacingOccurrences(of: "\"rating\":1500,", with: "\"rating\":1e300,")
        #expect(crafted != valid)
        #expect(throws: (any Error).self) { try JournalRecord.decode(Array(crafted.utf8)) }
    }
}
