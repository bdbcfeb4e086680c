import Foundation
import SetClient
import SetNet

/// A full-screen program's frame, shared by the arena's screen and its TV: the state folder made,
/// the terminal taken (its log in that folder) and restored after, one event loop. The program
/// runs on them and returns its status and the words to show once the terminal is back.
enum FullScreen {
    static func run(_ options: ClientOptions, _ program: (EventLoop, TerminalSession) -> (status: Int32, message: String?))
        -> (status: Int32, message: String?) {
        Sockets.ignoreBrokenPipes()
        let directory = options.resolvedStateDirectory
        try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let session: TerminalSession
        do { session = try TerminalSession(logPath: directory + "/client.log", showsLogPath: options.showsLogPath) } catch {
            return (1, "setgame: \(error)")
        }
        defer { session.end() }
        let loop: EventLoop
        do { loop = try EventLoop() } catch { return (1, "setgame: \(error)") }
        return program(loop, session)
    }
}
