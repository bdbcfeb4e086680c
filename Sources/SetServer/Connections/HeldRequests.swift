import SetWire

/// A line a connection sent, read and counted against its rate limit: a request to perform, or
/// the error that answers it (bad JSON, too long, over the rate).
enum ArrivedRequest {
    case request(ClientRequest)
    case refused(WireError, id: JSONValue?)

    /// The id its answer echoes.
    var id: JSONValue? {
        switch self {
        case .request(let request): request.id
        case .refused(_, let id): id
        }
    }

    /// A `pong`: it answers the server's ping, so nothing answers it.
    var isPong: Bool {
        if case .request(let request) = self, case .pong = request.message { return true }
        return false
    }
}

/// What a connection asked while its join was being answered off the loop, kept to be answered
/// after the join's answer in the order it came (Protocol.md, "The shape of a session"). Bounded:
/// a client that sends more meanwhile has the rest refused at once.
struct HeldRequests {
    /// How many requests may wait behind one join.
    static let bound = 32

    private var waiting: [ArrivedRequest] = []

    var isEmpty: Bool { waiting.isEmpty }

    /// Keeps `request` to be answered later; false, keeping nothing, when `bound` wait already.
    mutating func hold(_ request: ArrivedRequest) -> Bool {
        guard waiting.count < Self.bound else { return false }
        waiting.append(request)
        return true
    }

    /// The oldest request still waiting, taken out.
    mutating func next() -> ArrivedRequest? {
        waiting.isEmpty ? nil : waiting.removeFirst()
    }

    /// The answer to a request beyond the bound: it is dropped, and answered at once.
    static let overflow = WireError(.rateLimited, "Over \(bound) requests already wait for your join's answer; this one was dropped.")
}
