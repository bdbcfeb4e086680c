import Dispatch
import Foundation
import SetNet
import SetServer
import Testing

/// Error messages say what happened: an unusable data folder is not a listening problem, and a
/// name that cannot be looked up is not "No route to host".
@Suite struct StartErrorTests {
    func scratchFile() throws -> String {
        let path = NSTemporaryDirectory() + "setgame-file-\(UUID().uuidString)"
        try "not a folder".write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    func startProblem(data: String) -> ServerStartError? {
        var config = ServerConfig()
        config.port = 0
        config.dataDirectory = data
        do { _ = try Server(config: config, log: .silent) } catch { return error }
        return nil
    }

    @Test func aFileAsTheDataFolderIsNamedAsSuch() throws {
        let file = try scratchFile()
        let problem = try #require(startProblem(data: file))
        guard case .dataDirectory(let path, _) = problem else { Issue.record("\(problem)"); return }
        #expect(path == file)
        #expect(problem.description == "cannot use the data folder \(file): \(file) is a file, not a folder")
        #expect(!problem.description.contains("listen"))
    }

    @Test func aFileOnTheWayToTheDataFolderIsNamed() throws {
        let file = try scratchFile()
        let problem = try #require(startProblem(data: file + "/matches"))
        #expect(problem.description == "cannot use the data folder \(file)/matches: cannot create \(file)/matches: \(file) is a file, not a folder")
    }

    @Test func aPortInUseIsAListeningProblem() throws {
        let taken = try Sockets.listen(host: "127.0.0.1", port: 0)
        defer { close(taken) }
        var config = ServerConfig()
        config.port = Sockets.localPort(taken)
        var problem: ServerStartError?
        do { _ = try Server(config: config, log: .silent) } catch { problem = error }
        guard case .network = try #require(problem) else { Issue.record("\(String(describing: problem))"); return }
        #expect(problem?.description.hasPrefix("cannot listen on 127.0.0.1:\(config.port): bind") == true)
    }

    /// The `setgame` binary this test run was built with, beside the test bundle.
    static var builtBinary: String {
        URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent().appendingPathComponent("setgame").path
    }

    /// Issue 32 item 20: `setgame join` to a host name that cannot be found says so and exits 1;
    /// it once showed a blank screen and waited for a key. The real binary runs in a
    /// pseudo-terminal (`script`) in a network namespace of its own (`unshare -n`, see
    /// PLATFORM.md), where the lookup fails at once without asking the machine's resolver.
    @Test func joiningAHostNameThatCannotBeFoundSaysSoAndExits() throws {
        let setgame = Self.builtBinary
        try #require(FileManager.default.isExecutableFile(atPath: setgame), "build the binary first: \(setgame)")
        let home = NSTemporaryDirectory() + "setgame-lookup-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: home) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/unshare")
        process.arguments = ["-n", "/usr/bin/script", "-qec", "\(setgame) join no-such-setgame-host:7380 --name ann", "/dev/null"]
        process.environment = ["HOME": home, "TERM": "xterm", "PATH": "/usr/bin:/bin"]
        // A keyboard that stays open and says nothing: the client must end on its own.
        let keyboard = Pipe(), output = Pipe()
        process.standardInput = keyboard
        process.standardOutput = output
        process.standardError = output
        let exited = DispatchSemaphore(value: 0)
        process.terminationHandler = { _ in exited.signal() }
        try process.run()
        // A guard against a client that never ends, not a measure of speed: it ends at once.
        if exited.wait(timeout: .now() + 60) == .timedOut {
            process.terminate()
            exited.wait()
            Issue.record("setgame join did not exit on a host name that cannot be found")
        }
        withExtendedLifetime(keyboard) {}
        let raw = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let text = raw.replacing(#/\x1B\[[0-9;?]*[A-Za-z]/#, with: " ").split(whereSeparator: \.isWhitespace).joined(separator: " ")
        #expect(process.terminationStatus == 1, "\(text)")
        #expect(text.contains("cannot find host 'no-such-setgame-host': "), "\(text)")
        #expect(!text.contains("No route to host"), "\(text)")
    }
}
