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

    @Test func aFailedNameLookupSaysSoAndNotNoRouteToHost() {
        var problem: SocketError?
        do { _ = try Sockets.ipv4Address(host: "no-such-host.invalid", port: 7380) } catch { problem = error }
        let text = problem?.description ?? ""
        #expect(text.hasPrefix("cannot find host 'no-such-host.invalid': "), "\(text)")
        #expect(!text.contains("No route to host"), "\(text)")
    }
}
