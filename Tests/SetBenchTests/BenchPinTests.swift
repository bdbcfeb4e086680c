import Foundation
import Testing
@testable import SetBench

/// The bench's "server on core 0" holds for every thread of the server, not only its first: the
/// server has begun its lanes' threads before the bench can pin it.
@Suite struct BenchPinTests {
    @Test(.enabled(if: ProcessInfo.processInfo.activeProcessorCount >= 2 && FileManager.default.isExecutableFile(atPath: "/usr/bin/python3")))
    func everyThreadOfAProcessAlreadyRunningIsPinned() throws {
        // A process of four threads, all begun before the pinning, as the server's are.
        let child = Process()
        child.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        child.arguments = ["-c", "import sys, threading; [threading.Thread(target=sys.stdin.read).start() for _ in range(3)]; print(flush=True); sys.stdin.read()"]
        let input = Pipe(), output = Pipe()
        (child.standardInput, child.standardOutput) = (input, output)
        try child.run()
        defer {
            try? input.fileHandleForWriting.close()
            child.waitUntilExit()
        }
        _ = output.fileHandleForReading.firstLine()  // its threads are running
        let threads = try FileManager.default.contentsOfDirectory(atPath: "/proc/\(child.processIdentifier)/task")
        #expect(threads.count == 4)

        #expect(BenchServer.pinEveryThread(of: "\(child.processIdentifier)", to: 0))

        for thread in threads {
            let status = try String(contentsOfFile: "/proc/\(child.processIdentifier)/task/\(thread)/status", encoding: .utf8)
            let allowed = status.split(separator: "\n").first { $0.hasPrefix("Cpus_allowed_list:") }
            #expect(allowed?.split(separator: "\t").last == "0", "thread \(thread): \(allowed ?? "?")")
        }
    }
}
