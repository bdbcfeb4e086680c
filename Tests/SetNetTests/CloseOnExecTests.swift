import Foundation
import Glibc
import SetNet
import Testing

/// Every socket the project opens is closed on exec: a program another thread starts while it is
/// open (the bench's server, a test's PostgreSQL) does not inherit it. An inherited socket outlives
/// its owner's close: a peer's hang-up never reached the other end, so a player who left stayed
/// seated as present, waiting for a duel (seen in the test suite whenever a throwaway PostgreSQL
/// started meanwhile), and a closed listener still took connections.
@Suite(.serialized) struct CloseOnExecTests {
    /// Starts `sleep`, as posix_spawn does with nothing closed for it: it inherits every
    /// descriptor not closed on exec. Killed and reaped by `end`.
    func startBystander() -> pid_t {
        var pid: pid_t = 0
        let words: [String] = ["/bin/sleep", "30"]
        let arguments: [UnsafeMutablePointer<CChar>?] = words.map { strdup($0) } + [nil]
        defer { for argument in arguments { free(argument) } }
        let spawned = posix_spawn(&pid, "/bin/sleep", nil, nil, arguments, environ)
        #expect(spawned == 0)
        return pid
    }

    func end(_ pid: pid_t) {
        kill(pid, SIGKILL)
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
    }

    /// A listener, a socket connected to it and the one it accepted, as the project opens them.
    func connectedSockets() throws -> (listener: Int32, client: Int32, server: Int32) {
        let listener = try Sockets.listen(host: "127.0.0.1", port: 0)
        let client = try Sockets.connect(host: "127.0.0.1", port: Sockets.localPort(listener))
        var accepted: Int32?
        for _ in 0..<1_000 where accepted == nil {
            accepted = try Sockets.accept(listener)
            if accepted == nil { usleep(1_000) }
        }
        return (listener, client, try #require(accepted))
    }

    @Test func aHangUpReachesThePeerThoughAProgramWasStartedMeanwhile() throws {
        let (listener, client, server) = try connectedSockets()
        defer { close(listener); close(client) }
        let bystander = startBystander()
        defer { end(bystander) }

        // The server's side hangs up: the client reads the end of the stream, not a wait.
        close(server)
        Sockets.setReceiveTimeout(client, milliseconds: 5_000)
        var byte: UInt8 = 0
        #expect(recv(client, &byte, 1, 0) == 0, "the hang-up did not arrive: the bystander holds the accepted socket")
    }

    /// The sockets' inodes the program `pid` holds open (posix_spawn returns once it has exec'd,
    /// so what it holds now, it inherited).
    func socketsHeld(by pid: pid_t) -> Set<String> {
        let folder = "/proc/\(pid)/fd"
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        return Set(entries.compactMap { try? FileManager.default.destinationOfSymbolicLink(atPath: "\(folder)/\($0)") }.filter { $0.hasPrefix("socket:") })
    }

    func inode(_ fd: Int32) -> String {
        var status = stat()
        fstat(fd, &status)
        return "socket:[\(status.st_ino)]"
    }

    @Test func aProgramStartedWhileSocketsAreOpenHoldsNoneOfThem() throws {
        let (listener, client, server) = try connectedSockets()
        defer { close(listener); close(client); close(server) }
        let bystander = startBystander()
        defer { end(bystander) }
        let held = socketsHeld(by: bystander)
        for (role, fd) in [("listener", listener), ("accepted", server), ("connected", client)] {
            #expect(!held.contains(inode(fd)), "the program holds the \(role) socket")
        }
    }
}
