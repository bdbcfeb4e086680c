import Foundation
import SetNet
import SetWire

/// What a probe asks a running server (`setgame serve --check --address`).
package enum ProbeQuestion: Equatable, Sendable {
    /// Can it take players now: `health` answered with `"ready":true` (a readiness probe).
    case ready
    /// Does its loop answer at all: a `welcome` on a new connection, whatever its store says (a
    /// liveness probe must not restart a node because its database is away).
    case alive
}

/// `setgame serve --check --address HOST:PORT [--alive]`: asks a running server whether it is
/// ready (or alive) and exits 0 if it is, 1 if not: an orchestrator's exec probe, a container's
/// HEALTHCHECK.
package struct ServerProbe: Equatable, Sendable {
    package var address: ServerAddress
    package var question: ProbeQuestion
    /// How long to wait for each answer; a probe that hears nothing in time says not ready.
    package var timeoutMs = 4_000

    package init(address: ServerAddress, question: ProbeQuestion) {
        self.address = address
        self.question = question
    }

    /// How a probe ends: its one line, and whether the server passed.
    package struct Verdict: Equatable, Sendable {
        package var passed: Bool
        package var line: String

        package init(passed: Bool, line: String) {
            self.passed = passed
            self.line = line
        }
    }

    /// What the probe concludes from the next line the server sent; nil: read on.
    package func verdict(after message: ServerMessage) -> Verdict? {
        switch message {
        case .welcome where question == .alive: return Verdict(passed: true, line: "alive: \(address.host):\(address.port) answers")
        case .health(let report, _):
            var parts = report.node.map { ["node \($0)"] } ?? []
            if let lease = report.lease { parts.append("lease \(lease.rawValue)") }
            parts.append("store \(report.store.rawValue)")
            return Verdict(passed: report.ready, line: "\(report.ready ? "ready" : "not ready"): \(parts.joined(separator: ", "))")
        case .error(let error, _) where error.fatal || question == .ready:
            // A full server (`server_full`) is alive but takes nobody new: not ready.
            return Verdict(passed: false, line: "not ready: \(error.code.rawValue): \(ServerText.printable(error.message))")
        default: return nil
        }
    }

    /// Connects, asks, and prints the verdict; returns the exit status.
    package func run() -> Int32 {
        Sockets.ignoreBrokenPipes()
        let verdict = ask()
        print(verdict.line)
        return verdict.passed ? 0 : 1
    }

    /// Connects and asks; the verdict, unprinted.
    package func ask() -> Verdict {
        let socket: LineSocket
        do {
            let fd = try Sockets.connect(host: address.host, port: address.port)
            Sockets.setReceiveTimeout(fd, milliseconds: timeoutMs)
            socket = LineSocket(adopting: fd, maxLineBytes: 1 << 16, maxQueuedBytes: .max)
        } catch {
            return Verdict(passed: false, line: "not ready: cannot reach \(address.host):\(address.port): \(error)")
        }
        defer { socket.close() }
        if question == .ready {
            socket.send(ClientMessageEncoder.line(ClientRequest(id: "probe", .health)))
            socket.flush()
        }
        while true {
            guard case .lines(let lines) = socket.read() else {
                return Verdict(passed: false, line: "not ready: no answer from \(address.host):\(address.port) within \(timeoutMs) ms")
            }
            for case .complete(let bytes) in lines {
                guard case .success(let message) = ServerMessageCoding.decode(bytes), let verdict = verdict(after: message) else { continue }
                return verdict
            }
        }
    }
}

extension Commands {
    /// `serve --check --address HOST:PORT [--alive]`: the probe asked for, if any.
    static func probe(_ values: OptionValues) throws(UsageError) -> ServerProbe? {
        guard let text = values.text("address") else {
            if values.flag("alive") { throw UsageError("--alive needs --check --address HOST:PORT", command: serve.name) }
            return nil
        }
        guard values.flag("check") else { throw UsageError("--address needs --check: it asks a running server", command: serve.name) }
        let address = try OptionValues(ParsedArguments(positionals: [text]), command: serve.name).address()
        return ServerProbe(address: address, question: values.flag("alive") ? .alive : .ready)
    }
}
