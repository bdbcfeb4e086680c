import Foundation
import Glibc
import SetNet
import SetTerminal
import SetWire

/// Asks a server one account question and prints its answer: the I/O around `AccountReport`.
package enum AccountClient {
    /// Returns the exit status: 0 answered, 1 refused or unreachable.
    package static func run(_ command: AccountCommand, stateDirectory: String = ProcessEnvironment.stateFolder()) -> Int32 {
        Sockets.ignoreBrokenPipes()
        var query = command.query
        if command.asksOwnHistory, case .history(_, _, let after, let limit) = query {
            // Never made here: a client that has not played on the server has no history there.
            guard let key = SeatTokenStore(accountsIn: stateDirectory).token(for: "\(command.host):\(command.port)") else {
                return fail("you have no account on \(command.host):\(command.port) yet: play a game there first, or name a player")
            }
            query = .history(name: nil, account: key, after: after, limit: limit)
        }
        let socket: LineSocket
        switch questionSocket(host: command.host, port: command.port) {
        case .success(let connected): socket = connected
        case .failure(let error): return fail(error.message)
        }
        defer { socket.close() }
        socket.send(ClientMessageEncoder.line(ClientRequest(id: "q", .account(query))))
        socket.flush()
        while true {
            guard case .lines(let lines) = socket.read() else { return fail("the server closed the connection without an answer") }
            for case .complete(let bytes) in lines {
                switch ServerMessageCoding.decode(bytes) {
                case .success(.accountInfo(let info, _)):
                    if command.json {
                        print(String(decoding: bytes, as: UTF8.self))
                    } else {
                        AccountReport.lines(info).forEach { print($0) }
                    }
                    return 0
                case .success(.error(let error, _)): return fail(ServerText.printable(error.message))
                default: continue
                }
            }
        }
    }

    /// Why a question's connection could not be made.
    struct Unreachable: Error { var message: String }

    /// A connection for one question and its answer (answers of up to 1 MiB a line, 10 s each).
    static func questionSocket(host: String, port: UInt16) -> Result<LineSocket, Unreachable> {
        do {
            let fd = try Sockets.connect(host: host, port: port)
            Sockets.setReceiveTimeout(fd, milliseconds: 10_000)
            return .success(LineSocket(adopting: fd, maxLineBytes: 1 << 20, maxQueuedBytes: .max))
        } catch {
            return .failure(Unreachable(message: "cannot reach \(host):\(port): \(error)"))
        }
    }

    static func fail(_ message: String) -> Int32 {
        FileHandle.standardError.write(Data("setgame: \(message)\n".utf8))
        return 1
    }
}
