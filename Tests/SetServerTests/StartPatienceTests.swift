import SetServer
import Testing

/// A node started while its PostgreSQL restarts tries again, with the reason in the log, instead
/// of exiting after one refused connection; every other start error is final at once.
struct StartPatienceTests {
    @Test func theWaitsDoubleUpToTheLongestAndAddUpToThePatience() {
        #expect(StartPatience().waits == [1_000, 2_000, 4_000, 8_000, 8_000, 7_000])
        var short = StartPatience()
        short.totalMs = 2_500
        #expect(short.waits == [1_000, 1_500])
    }

    @Test func anUnreachableStoreIsTriedAgainUntilItAnswers() throws {
        let lines = ServerLogLines()
        var tries = 0, waited: [Int64] = []
        let started = try StartPatience().start({ () throws(ServerStartError) -> String in
            tries += 1
            if tries < 3 { throw .storeUnreachable("node a cannot register: unavailable: connection refused") }
            return "serving"
        }, log: lines.log) { ms in
            waited.append(ms)
            return true
        }
        #expect(started == "serving" && tries == 3 && waited == [1_000, 2_000])
        #expect(lines.all.count == 2 && lines.all.allSatisfy { $0.contains("the store cannot be reached now") && $0.contains("trying again in") })
    }

    @Test func anyOtherStartErrorIsFinalAtOnce() {
        var tries = 0
        #expect(throws: ServerStartError.self) {
            _ = try StartPatience().start({ () throws(ServerStartError) -> Int in
                tries += 1
                throw .cluster("another server is node a")
            }, log: .silent) { _ in true }
        }
        #expect(tries == 1)
    }

    @Test func aStopDuringAWaitEndsTheTriesWithTheReason() {
        var tries = 0
        #expect(throws: ServerStartError.self) {
            _ = try StartPatience().start({ () throws(ServerStartError) -> Int in
                tries += 1
                throw .storeUnreachable("connection refused")
            }, log: .silent) { _ in false }
        }
        #expect(tries == 1)
    }

    @Test func aStoreThatNeverAnswersFailsOnceThePatienceIsSpent() {
        var tries = 0, waited: Int64 = 0
        #expect(throws: ServerStartError.self) {
            _ = try StartPatience().start({ () throws(ServerStartError) -> Int in
                tries += 1
                throw .storeUnreachable("connection refused")
            }, log: .silent) { ms in
                waited += ms
                return true
            }
        }
        #expect(tries == StartPatience().waits.count + 1 && waited == StartPatience().totalMs)
    }
}
