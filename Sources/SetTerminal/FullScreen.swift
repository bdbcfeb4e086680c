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

/// Where a full-screen program's loop stands: running, or over because the app quit (with its
/// status and words) or the terminal went away or was signalled (status 0). The first end counts.
enum ProgramEnd: Equatable {
    case running
    case quit(status: Int32, message: String?)
    case interrupted

    var over: Bool { self != .running }
    var status: Int32 { if case .quit(let status, _) = self { status } else { 0 } }
    var message: String? { if case .quit(_, let message) = self { message } else { nil } }

    mutating func quit(status: Int32, message: String?) {
        if self == .running { self = .quit(status: status, message: message) }
    }

    mutating func interrupt() {
        if self == .running { self = .interrupted }
    }
}
