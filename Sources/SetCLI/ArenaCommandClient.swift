import SetNet
import SetWire

/// Asks a server one arena question and prints its answer: the I/O around `ArenaReport`.
package enum ArenaCommandClient {
    /// Returns the exit status: 0 answered, 1 refused or unreachable.
    package static func run(_ command: ArenaCommand, print: (String) -> Void = { Swift.print($0) }) -> Int32 {
        Sockets.ignoreBrokenPipes()
        let socket: LineSocket
        switch AccountClient.questionSocket(host: command.host, port: command.port) {
        case .success(let connected): socket = connected
        case .failure(let error): return fail(error.message)
        }
        defer { socket.close() }
        socket.send(ClientMessageEncoder.line(ClientRequest(id: "a", .arena(command.request))))
        socket.flush()
        var now: Int64 = 0
        while true {
            guard case .lines(let lines) = socket.read() else { return fail("the server closed the connection without an answer") }
            for case .complete(let bytes) in lines {
                let lines: [String]
                switch ServerMessageCoding.decode(bytes) {
                case .success(.welcome(_, _, let time, _)):
                    now = time
                    continue
                case .success(.arenas(let summaries, _)): lines = ArenaReport.lines(summaries, now: now)
                case .success(.arenaResults(let results, _)): lines = ArenaReport.lines(results)
                case .success(.arena(let view, _)): lines = ArenaReport.lines(created: view, now: now)
                case .success(.error(let error, _)): return fail(ServerText.printable(error.message))
                default: continue
                }
                if command.json { print(String(decoding: bytes, as: UTF8.self)) } else { lines.forEach(print) }
                return 0
            }
        }
    }

    private static func fail(_ message: String) -> Int32 { AccountClient.fail(message) }
}
