import SetNet
import SetWire

/// Asks the server a question over the door's socket, as the player: the door's first line says
/// whose key it is, so `history` without a name is the key's own.
enum DoorAccounts {
    /// The server's answer to an account question, or the reason there is none, in words.
    static func ask(_ query: AccountQuery, route: UnixRoute) -> Result<AccountInfo, DoorAnswerError> {
        request(.account(query), route: route) { message in
            if case .accountInfo(let info, _) = message { return info }
            return nil
        }
    }

    /// Makes `name` this player's: asked as coming into the server's lobby, which checks a name as
    /// a new seat does (another account's, or one kept for the house) and, for a key, makes it the
    /// key's account's name at once, so no other key can choose it meanwhile.
    static func claimName(_ name: String, route: UnixRoute) -> Result<Void, DoorAnswerError> {
        request(.lobby(.enter(JoinRequest(name: name))), route: route) { message in
            if case .lobby = message { return () }
            return nil
        }
    }

    /// The arenas the server lists (running, starting, over within the hour), and the server's
    /// time as its welcome said, which their clocks count from.
    static func arenas(route: UnixRoute) -> Result<(arenas: [ArenaSummary], serverNow: Int64), DoorAnswerError> {
        var serverNow: Int64 = 0
        return request(.arena(.list), route: route) { message in
            switch message {
            case .welcome(_, _, let time, _):
                serverNow = time
                return nil
            case .arenas(let summaries, _): return (summaries, serverNow)
            default: return nil
            }
        }
    }

    /// Sends one request and waits for the reply `answer` recognises, or an error.
    private static func request<Answer>(_ body: ClientMessage, route: UnixRoute,
                                        answer: (ServerMessage) -> Answer?) -> Result<Answer, DoorAnswerError> {
        Sockets.ignoreBrokenPipes()
        let socket: LineSocket
        do {
            let fd = try Sockets.connect(unixPath: route.path)
            Sockets.setReceiveTimeout(fd, milliseconds: 10_000)
            socket = LineSocket(adopting: fd, maxLineBytes: 1 << 20, maxQueuedBytes: .max)
        } catch {
            return .failure(DoorAnswerError(code: nil, message: "The game's server cannot be reached just now; try again later."))
        }
        defer { socket.close() }
        socket.send(route.greeting)
        socket.send(ClientMessageEncoder.line(ClientRequest(id: "q", body)))
        socket.flush()
        while true {
            guard case .lines(let lines) = socket.read() else {
                return .failure(DoorAnswerError(code: nil, message: "The game's server gave no answer; try again later."))
            }
            for case .complete(let bytes) in lines {
                switch ServerMessageCoding.decode(bytes) {
                case .success(.error(let error, _)): return .failure(DoorAnswerError(code: error.code, message: ServerText.printable(error.message)))
                case .success(let message): if let found = answer(message) { return .success(found) }
                case .failure: continue
                }
            }
        }
    }
}

/// Why an account question got no answer: the server's refusal (its code), or no server.
struct DoorAnswerError: Error, Equatable {
    var code: ErrorCode?
    var message: String
}
