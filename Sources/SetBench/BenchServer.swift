import CLinux
import Foundation
import Glibc
import SetNet
import Synchronization

/// The bench's own `setgame serve`, in a process of its own (so its CPU and memory are its own)
/// with a data folder of its own. Both are gone when the bench ends, however it ends: the child
/// runs in a process group of its own, which a ^C at the terminal does not reach, so the bench
/// stops it itself on SIGINT and SIGTERM.
package final class BenchServer: Sendable {
    package let port: UInt16
    package let pid: Int32
    /// The data folder, removed at the end.
    package let folder: String
    private let process: Mutex<Process?>

    /// Why the server could not be started.
    package enum Failure: Error, CustomStringConvertible {
        case launch(String)
        case noAddress(String)

        package var description: String {
            switch self {
            case .launch(let reason): "cannot start the server: \(reason)"
            case .noAddress(let line): "the server did not say where it listens: \(line)"
            }
        }
    }

    /// Starts `setgame serve --port 0 --data FOLDER/matches` plus `arguments`, with its stderr in
    /// `FOLDER/server.log`, and under a hard `descriptorLimit` when one is given; returns once it
    /// says where it listens. `signals` stop it (and end the bench) on SIGINT or SIGTERM.
    package init(folder: String, arguments: [String], descriptorLimit: Int? = nil, signals: StopSignals) throws(Failure) {
        self.folder = folder
        try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let binary = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().path
        let serve = [binary, "serve", "--port", "0", "--data", folder + "/matches"] + arguments
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        let limit = descriptorLimit.map { "ulimit -n \($0) && " } ?? ""
        process.arguments = ["-c", "\(limit)exec \"$0\" \"$@\" 2>\"\(folder)/server.log\""] + serve
        let output = Pipe()
        process.standardOutput = output
        do { try process.run() } catch {
            try? FileManager.default.removeItem(atPath: folder)
            throw .launch("\(error)")
        }
        pid = process.processIdentifier
        self.process = Mutex(process)
        let line = String(decoding: output.fileHandleForReading.firstLine(), as: UTF8.self)
        guard let port = line.split(separator: ":").last.flatMap({ UInt16($0.trimmingCharacters(in: .whitespacesAndNewlines)) }) else {
            self.port = 0
            stop()
            throw .noAddress(line)
        }
        self.port = port
        signals.whenSignalled { [self] in
            stop()
            exit(130)
        }
    }

    /// On two or more cores the server gets core 0 and the load core 1, so neither one's bursts
    /// show up as the other's latency. False when that could not be done.
    package func pin() -> Bool {
        guard ProcessInfo.processInfo.activeProcessorCount >= 2 else { return false }
        return pinServer() && Self.pinEveryThread(of: "self", to: 1)
    }

    /// Every thread of the server on core 0. The server has begun its lanes' threads before it
    /// says where it listens, and an affinity set on a process id holds only for its first thread.
    package func pinServer() -> Bool { Self.pinEveryThread(of: "\(pid)", to: 0) }

    /// Pins each thread `/proc/PROCESS/task` lists; one begun meanwhile inherits its maker's.
    package static func pinEveryThread(of process: String, to cpu: Int32) -> Bool {
        guard let threads = try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(process)/task"), !threads.isEmpty else { return false }
        return threads.compactMap { Int32($0) }.allSatisfy { setgame_pin_to_cpu($0, cpu) == 0 }
    }

    /// Stops the server, waits for it, and removes its folder; later calls do nothing. A ^C that
    /// comes while the bench stops it waits until that is done, so the process exits only after.
    package func stop() {
        process.withLock { process in
            guard let running = process.take() else { return }
            running.terminate()
            running.waitUntilExit()
            try? FileManager.default.removeItem(atPath: folder)
        }
    }

    /// Lines the server has logged so far.
    package var logLines: Int {
        guard let data = FileManager.default.contents(atPath: folder + "/server.log") else { return 0 }
        return data.reduce(0) { $0 + ($1 == 0x0A ? 1 : 0) }
    }

    /// The server's CPU seconds so far.
    package var cpuSeconds: Double { ProcessStats.read(pid: pid)?.cpuSeconds ?? 0 }
}

extension FileHandle {
    /// Reads until a newline; the server prints its address as its first line.
    func firstLine() -> Data {
        var line = Data()
        while let byte = try? read(upToCount: 1), let first = byte.first {
            if first == 0x0A { break }
            line.append(first)
        }
        return line
    }
}
