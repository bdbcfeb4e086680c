import Foundation
import SetRules
@testable import SetServer
import SetTestSupport
import SetWire
import Testing

/// Issue 44: arenas on a schedule (`serve --arena-schedule PREFIX=EVERY:MINUTES:MODE`). The slot
/// arithmetic is pure and checked exhaustively against a brute-force oracle, minute by minute
/// over days, and the names against Foundation's calendar; two servers on one store with the
/// same schedule make each slot's arena once, listed and joinable before it starts.
@Suite struct ArenaScheduleTests {
    static let schedules = [(1, 1), (7, 3), (10, 5), (10, 10), (30, 10), (60, 10), (90, 45), (180, 180), (1_440, 60)].map {
        ArenaSchedule(prefix: "s", everyMinutes: $0.0, minutes: $0.1, variant: .classic)
    }

    /// The slots due at `now` by brute force: slot k is due from k·period minus the lead (one
    /// period, at most an hour) until k·period plus its length.
    static func oracle(_ schedule: ArenaSchedule, at now: Int64) -> [Int64] {
        let period = Int64(schedule.everyMinutes) * 60_000, length = Int64(schedule.minutes) * 60_000, lead = min(period, 3_600_000)
        let around = now / period, reach = (lead + length) / period + 2
        return (around - reach...around + reach).filter { k in k * period - lead <= now && now < k * period + length }
    }

    /// `YYMMDDHHMM` of a wall time in UTC, as Foundation's calendar reads it.
    static func stamp(_ wall: Int64) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyMMddHHmm"
        return formatter.string(from: Date(timeIntervalSince1970: Double(wall) / 1_000))
    }

    @Test func theSlotsDueAreTheOraclesMinuteByMinuteOverThreeDays() {
        // 2026-11-28 23:00 UTC, across a day, a month's and a leap day's ends below.
        let start: Int64 = 1_795_906_800_000
        for schedule in Self.schedules {
            let period = Int64(schedule.everyMinutes) * 60_000, length = Int64(schedule.minutes) * 60_000
            for minute in Int64(0)..<(3 * 1_440) {
                for offset in [Int64(0), 1, 59_999] {
                    let now = start + minute * 60_000 + offset
                    let slots = schedule.slots(at: now)
                    #expect(slots.map { $0.startsAt / period } == Self.oracle(schedule, at: now), "\(schedule) at \(now)")
                    #expect(slots.allSatisfy { $0.endsAt - $0.startsAt == length && $0.startsAt % period == 0 })
                    // The next slot is listed a period ahead, at most an hour.
                    if schedule.everyMinutes <= 60 { #expect(slots.contains { $0.startsAt > now }, "the next slot is listed ahead") }
                    // Until the next slot is due only slots end; then one is due that was not.
                    let next = schedule.nextSlotDue(after: now)
                    #expect(next > now)
                    #expect(Set(Self.oracle(schedule, at: next - 1)).isSubset(of: Set(Self.oracle(schedule, at: now))))
                    #expect(!Set(Self.oracle(schedule, at: next)).isSubset(of: Set(Self.oracle(schedule, at: next - 1))), "a new slot is due at \(next)")
                }
            }
        }
    }

    @Test func aSlotsNameIsItsStartInUTC() {
        let walls: [Int64] = [0, 59_999, 60_000, 951_782_400_000, 951_868_799_999, 1_795_906_800_000, 1_798_761_599_999, 4_102_444_800_000]
        for wall in walls + (0..<500).map({ Int64($0) * 7_777_777_777 }) {
            #expect(ArenaSchedule.stamp(wall) == Self.stamp(wall), "at \(wall)")
        }
        let hourly = ArenaSchedule(prefix: "hourly", everyMinutes: 60, minutes: 10, variant: .classic)
        // At 13:05 UTC on 2026-11-29 the 13:00 arena runs and the 14:00 one is listed.
        let slots = hourly.slots(at: 1_795_957_500_000)
        #expect(slots.map(\.name) == ["hourly-2611291300", "hourly-2611291400"])
        #expect(slots.allSatisfy { $0.name.count <= 20 })
    }

    @Test func theSettingIsParsedOrRefusedInWords() {
        #expect(ArenaSchedule.parse("hourly=60:10:classic") == .success(ArenaSchedule(prefix: "hourly", everyMinutes: 60, minutes: 10, variant: .classic)))
        #expect(ArenaSchedule.parse("j_2=1440:180:junior") == .success(ArenaSchedule(prefix: "j_2", everyMinutes: 1_440, minutes: 180, variant: .junior)))
        #expect(ArenaSchedule.parse("hourly") == .failure(.shape("hourly")))
        #expect(ArenaSchedule.parse("hourly=60:10") == .failure(.shape("hourly=60:10")))
        #expect(ArenaSchedule.parse("hourly=x:10:classic") == .failure(.shape("hourly=x:10:classic")))
        #expect(ArenaSchedule.parse("=60:10:classic") == .failure(.prefix("")))
        #expect(ArenaSchedule.parse("toolongname=60:10:classic") == .failure(.prefix("toolongname")))
        #expect(ArenaSchedule.parse("a b=60:10:classic") == .failure(.prefix("a b")))
        #expect(ArenaSchedule.parse("h=0:1:classic") == .failure(.every(0)))
        #expect(ArenaSchedule.parse("h=1441:1:classic") == .failure(.every(1_441)))
        #expect(ArenaSchedule.parse("h=30:31:classic") == .failure(.minutes(31, every: 30)))
        #expect(ArenaSchedule.parse("h=600:181:classic") == .failure(.minutes(181, every: 600)))
        #expect(ArenaSchedule.parse("h=60:10:chess") == .failure(.mode("chess")))
    }

    /// Two servers on one store, with the same schedule: each due slot's arena is made once
    /// (one server's write takes it, the other finds it made), listed before it starts, and
    /// a player may join it then.
    @Test func twoServersMakeEachSlotsArenaOnceListedAhead() throws {
        let folder = temporaryFolder("setgame-arena-schedule")
        let schedule = ArenaSchedule(prefix: "tick", everyMinutes: 10, minutes: 5, variant: .junior)
        let before = Int64(Date().timeIntervalSince1970 * 1_000)
        let servers = try (0..<2).map { _ in
            try TestServer {
                $0.store = .sqliteFile(folder + "/accounts.sqlite3")
                $0.arenaSchedules = [schedule]
            }
        }
        defer { servers.forEach { $0.stop() } }
        let client = try ArenaRequestTests.client(servers[0])
        var listed: [ArenaSummary] = []
        // Each slot's arena is made on its own: wait until the next one (a period ahead) is listed.
        for attempt in 0..<400 where !listed.contains(where: { $0.state == .starting }) {
            guard case .arenas(let arenas, _) = try ArenaRequestTests.answer(client, .list, id: "l\(attempt)") else { continue }
            listed = arenas.filter { $0.arena.hasPrefix("tick-") }
            if !listed.contains(where: { $0.state == .starting }) { Thread.sleep(forTimeInterval: 0.05) }
        }
        let after = Int64(Date().timeIntervalSince1970 * 1_000)
        let possible = Set((schedule.slots(at: before) + schedule.slots(at: after)).map(\.name))
        #expect(!listed.isEmpty && Set(listed.map(\.arena)).isSubset(of: possible), "listed \(listed.map(\.arena)) of \(possible)")
        #expect(listed.allSatisfy { $0.variant == .junior && $0.rated })
        let upcoming = try #require(listed.first { $0.state == .starting })
        // Each arena made by exactly one server; the other found it made (once both have answered).
        for name in listed.map(\.arena) {
            func lines(_ server: TestServer, _ text: String) -> Int { server.logLines.all.filter { $0.contains("arena \(name) \(text)") }.count }
            for _ in 0..<400 where !servers.allSatisfy({ lines($0, "made for its slot") + lines($0, "was made for its slot already") == 1 }) {
                Thread.sleep(forTimeInterval: 0.05)
            }
            let made = servers.map { lines($0, "made for its slot") }, found = servers.map { lines($0, "was made for its slot already") }
            #expect(made.reduce(0, +) == 1 && found.reduce(0, +) == 1, "\(name) made \(made), found \(found)")
        }
        let (_, joined) = try ArenaRoomTests.joined(servers[1], upcoming.arena, "ann")
        #expect(joined.state == .starting && joined.standings.map(\.name) == ["ann"])
    }
}
