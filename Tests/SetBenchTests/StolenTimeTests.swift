import Testing
@testable import SetBench

/// What the hypervisor took from the cores during a run, read from /proc/stat's eighth column.
@Suite struct StolenTimeTests {
    @Test func stealIsTheEighthFieldOfEachCoresLine() throws {
        let before = try #require(StolenTime.parse("""
            cpu  5338044 109286 745078 2335111 28888 0 71005 2301 0 0
            cpu0 2616860 48431 364173 1236026 14936 0 33676 1206 0 0
            cpu1 2721184 60854 380905 1099084 13951 0 37329 1094 0 0
            intr 1 2 3
            """))
        #expect(before.ticksPerCore == [1206, 1094])
        let after = StolenTime(ticksPerCore: [1231, 1094])
        #expect(after.milliseconds(since: before, ticksPerSecond: 100) == [250, 0])
        #expect(StolenTime.parse("cpu0 1 2 3 4\n") == nil, "a kernel that does not count steal")
        #expect(StolenTime.read() != nil, "this machine's /proc/stat")
    }
}

@Suite struct StolenTimeReportTests {
    @Test func theReportSaysWhatTheHypervisorTookFromEachCore() {
        var report = BenchReport(config: BenchConfig(), load: LoadResult(), server: nil, machine: "test")
        #expect(!report.table.contains("hypervisor") && !report.json.contains("stolenMsPerCore"), "unknown, not said")
        report.stolenMsPerCore = [250.4, 0]
        #expect(report.table.contains("machine: test; taken by the hypervisor during the run: 250 ms, 0 ms"))
        #expect(report.json.contains(#""stolenMsPerCore":[250,0]"#))
    }
}
