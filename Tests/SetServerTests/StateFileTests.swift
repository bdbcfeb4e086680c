import Foundation
import Glibc
import SetNet
import SetRules
@testable import SetServer
import SetWire
import Testing

/// `server-state.json` and the folder it lives in are read like a stranger's request (issue 22,
/// items 1, 2 and 4): a bad state file is set aside with a log line, never trapped on, and
/// `serve --check` names it; a clock poisoned near the end of the range clients accept recovers;
/// a folder another user owns or may write in is refused, and no link is followed.
@Suite(.serialized) struct StateFileTests {
    func temporaryDirectory() -> String { temporaryFolder("setgame-state") }

    /// The time a fresh connection is greeted with.
    func welcomeTime(_ server: TestServer) throws -> Int64 {
        let client = try TestClient(port: server.port)
        return try client.waitFor("welcome") { if case .welcome(_, _, let time, _) = $0 { time } else { nil } }
    }

    func asideNames(_ data: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: data + "/damaged")) ?? []).sorted()
    }

    static let badStates: [String] = [
        #"{"clockLease":9223372036854775000}"#,  // trapped `serve` before it listened
        #"{"clockLease":-5}"#,
        #"{"clockLease":"12"}"#,
        #"{"clockLease":1000,"seedStart":"5"}"#,
        #"{"clockLease":1000,"seedStart":"5","seedNext":"-1"}"#,
        #"[1000]"#,
        "not json at all",
        String(repeating: " ", count: 5_000) + #"{"clockLease":1000}"#,
    ]

    @Test(arguments: badStates) func aBadStateFileIsSetAsideAndTheServerStarts(_ contents: String) throws {
        let data = temporaryDirectory()
        try contents.write(toFile: data + "/server-state.json", atomically: false, encoding: .utf8)
        let notes = Server.dataDirectoryNotes(data)
        #expect(notes.count == 1 && notes[0].hasPrefix("\(data)/server-state.json "), "\(notes)")
        #expect(notes.first?.contains("serve will set it aside") == true)

        let server = try TestServer { $0.dataDirectory = data }
        defer { server.stop() }
        let time = try welcomeTime(server)
        #expect(time >= 1_000 && time < 2_000, "the clock started at \(time)")
        let log = server.logLines.all.joined(separator: "\n")
        #expect(log.contains("\(data)/server-state.json ") && log.contains("moved to \(data)/damaged/server-state.json."), "\(log)")
        #expect(asideNames(data).count == 1 && asideNames(data)[0].hasPrefix("server-state.json."))
        // What the server wrote in its place is sound.
        #expect(Server.dataDirectoryNotes(data).isEmpty)
    }

    @Test func aSoundStateFileIsNotANote() throws {
        let data = temporaryDirectory()
        #expect(Server.dataDirectoryNotes(data).isEmpty)  // none at all yet
        try #"{"clockLease":5000,"seedNext":"8","seedStart":"5"}"#.write(toFile: data + "/server-state.json", atomically: false, encoding: .utf8)
        #expect(Server.dataDirectoryNotes(data).isEmpty)
        let server = try TestServer { $0.dataDirectory = data }
        defer { server.stop() }
        #expect(try welcomeTime(server) >= 5_000)
        #expect(asideNames(data).isEmpty)
    }

    /// An empty state file (the server stopped before its first write) is harmless and kept, but
    /// the lease it should hold is gone: `--check` and the start say so.
    @Test func anEmptyStateFileIsNamedButKept() throws {
        let data = temporaryDirectory()
        try "".write(toFile: data + "/server-state.json", atomically: false, encoding: .utf8)
        #expect(Server.dataDirectoryNotes(data).first?.contains("server-state.json is empty") == true)
        let server = try TestServer { $0.dataDirectory = data }
        defer { server.stop() }
        _ = try welcomeTime(server)
        #expect(server.logLines.all.contains { $0.contains("server-state.json is empty") }, "\(server.logLines.all)")
        #expect(asideNames(data).isEmpty)
    }

    /// A journal whose times lie just inside the range clients accept (2^53 − 2.5 s) once moved a
    /// restarted server's clock there, and the lease kept it there after the journal was deleted:
    /// every match then sent times past 2^53. Both are set aside, and the clock starts low.
    @Test func aClockPoisonedNearTheCeilingRecovers() throws {
        let data = temporaryDirectory()
        var first: TestServer? = try TestServer { $0.dataDirectory = data }
        first!.advance(by: (1 << 53) - 3_500)
        let seated = try TestClient.duel(first!, match: "poison")
        #expect(try #require(seated.1.view).time > (1 << 53) - 3_000)
        let leaseOnly = temporaryDirectory()
        withExtendedLifetime(seated) { first?.stop() }
        first = nil
        try FileManager.default.copyItem(atPath: data + "/server-state.json", toPath: leaseOnly + "/server-state.json")

        for folder in [data, leaseOnly] {
            let server = try TestServer { $0.dataDirectory = folder }
            defer { server.stop() }
            let time = try welcomeTime(server)
            #expect(time < RestoredClock.ceilingMs, "the clock started at \(time)")
            #expect(server.restoredMatches.isEmpty)
            let log = server.logLines.all.joined(separator: "\n")
            #expect(log.contains("server-state.json has clockLease"), "\(log)")
            if folder == data {
                #expect(log.contains("journal poison.jsonl is damaged (its times reach"), "\(log)")
                #expect(asideNames(folder).contains { $0.hasPrefix("poison.jsonl.") })
            }
        }
    }

    // MARK: The folder and its links (item 4)

    @Test func aStateFileThatIsALinkIsNeverFollowed() throws {
        let data = temporaryDirectory()
        let victim = temporaryDirectory() + "/precious"
        try "the victim's own file\n".write(toFile: victim, atomically: false, encoding: .utf8)
        #expect(symlink(victim, data + "/server-state.json") == 0)
        #expect(Server.dataDirectoryNotes(data).first?.contains("is a link") == true)

        let server = try TestServer { $0.dataDirectory = data }
        let time = try welcomeTime(server)
        server.stop()
        #expect(time >= 1_000)
        #expect(try String(contentsOfFile: victim, encoding: .utf8) == "the victim's own file\n")
        let aside = try #require(asideNames(data).first)
        var info = stat()
        #expect(lstat("\(data)/damaged/\(aside)", &info) == 0 && info.st_mode & S_IFMT == S_IFLNK, "the link itself was set aside")
        #expect(lstat(data + "/server-state.json", &info) == 0 && info.st_mode & S_IFMT == S_IFREG)
    }

    func startProblem(data: String) -> String? {
        var config = ServerConfig()
        config.port = 0
        config.dataDirectory = data
        do { _ = try Server(config: config, clock: ManualTime(1_000), log: .silent) } catch {
            if case .dataDirectory(_, let reason) = error { return reason }
            return "\(error)"
        }
        return nil
    }

    @Test func aDataFolderOthersMayWriteInIsRefused() throws {
        let data = temporaryDirectory()
        chmod(data, 0o777)
        #expect(startProblem(data: data) == "\(data) can be written by other users (mode 0777); make it yours alone: chmod go-w \(data)")
        #expect(Server.dataDirectoryProblem(data) != nil, "serve --check passed it")
        chmod(data, 0o750)
        #expect(Server.dataDirectoryProblem(data) == nil)
    }

    /// With HOME and XDG_STATE_HOME unset the state folder is `/tmp/setgame-UID`, which another
    /// user may have made first: then its `matches` folder is refused, whoever created that.
    @Test func aStateFolderSomeoneElseMadeFirstIsRefused() throws {
        #expect(ProcessEnvironment.stateFolder(environment: [:]) == "/tmp/setgame-\(getuid())")
        // Made first, open to all (any user could have): a world-writable folder that is not sticky.
        let planted = temporaryDirectory()
        chmod(planted, 0o777)
        let problem = try #require(startProblem(data: planted + "/matches"))
        #expect(problem == "\(planted), which holds \(planted)/matches, can be written by anyone and is not sticky (mode 0777)")
        // Made first by another user, however closed: only root can make one here to show it.
        guard geteuid() == 0 else { return }
        let theirs = temporaryDirectory()
        #expect(chown(theirs, 65_534, 65_534) == 0)
        #expect(startProblem(data: theirs + "/matches")?.hasPrefix("\(theirs), which holds \(theirs)/matches, belongs to another user (uid 65534)") == true)
        let matches = temporaryDirectory()
        #expect(chown(matches, 65_534, 65_534) == 0)
        #expect(startProblem(data: matches)?.hasPrefix("\(matches) belongs to another user (uid 65534)") == true)
    }
}
