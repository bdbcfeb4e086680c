import Foundation
import Testing
@testable import SetBench

/// Which cores did loopback's receive work during a run: read from the device's receive queues,
/// and said in the report, so a figure taken with the server's core doing its clients' receive
/// work is never compared unknowingly with one taken without.
@Suite struct LoopbackSteeringTests {
    @Test func aMaskNamesItsCoresWordByWordFromTheLeastSignificant() {
        #expect(LoopbackSteering.cores(ofMask: "0\n") == [])
        #expect(LoopbackSteering.cores(ofMask: "2\n") == [1])
        #expect(LoopbackSteering.cores(ofMask: "00000000,00000003") == [0, 1])
        #expect(LoopbackSteering.cores(ofMask: "00000001,80000000") == [31, 32])
        #expect(LoopbackSteering.cores(ofMask: "zz") == nil)
        #expect(LoopbackSteering.cores(ofMask: "1,,2") == nil)
    }

    @Test func theDevicesReceiveQueuesAreReadTogether() throws {
        let device = NSTemporaryDirectory() + "lo-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: device) }
        for (queue, mask) in [("rx-0", "2\n"), ("rx-1", "4\n"), ("tx-0", "1\n")] {
            try FileManager.default.createDirectory(atPath: "\(device)/queues/\(queue)", withIntermediateDirectories: true)
            try mask.write(toFile: "\(device)/queues/\(queue)/rps_cpus", atomically: true, encoding: .utf8)
        }
        #expect(LoopbackSteering.read(device: device) == LoopbackSteering(cores: [1, 2]))
        #expect(LoopbackSteering.read(device: device + "/none") == nil)
        #expect(LoopbackSteering.read() != nil, "this machine's loopback device")
    }

    @Test func theReportSaysWhichCoresDidTheReceiveWork() {
        var report = BenchReport(config: BenchConfig(), load: LoadResult(), server: nil, machine: "test")
        #expect(report.table.contains("loopback receive work: not known") && !report.json.contains("loopbackReceiveCores"))
        report.loopbackReceive = LoopbackSteering(cores: [])
        #expect(report.table.contains("loopback receive work: on the core that sent each packet"))
        #expect(report.json.contains(#""loopbackReceiveCores":[]"#))
        report.loopbackReceive = LoopbackSteering(cores: [1])
        #expect(report.table.contains("loopback receive work: on core 1"))
        #expect(report.json.contains(#""loopbackReceiveCores":[1]"#))
    }
}
