import SetNet
import SetRules
import SetWire

/// A chat line said while the silenced file was being read: it is judged by the new list.
struct WaitingChatLine {
    var text: String
    var room: ChatRoom?
    var id: JSONValue?
    var connection: ConnectionID
}

/// The chat policy part of the server, owned by its loop: the server's own rules for a chat
/// line (chat on or off, who the operator silenced, a repeat, how much each person may say),
/// checked before the room hears it; the room's rules (who writes in which room) are the
/// match's. Kept apart so every rule a line passes on its way in is in one place, and the
/// silenced file's reading (off the loop) has one owner.
final class ChatGate {
    /// The most lines that wait for a reading of the silenced file; past it a line is judged by
    /// the list in force, so a flood during a slow reading holds no memory.
    static let mostWaitingChatLines = 1_000

    /// The service's silenced list as this node last read it from the store (`Server+Silenced`).
    var silencedPoll = SilencedPoll()

    /// What becomes of a line at the gate.
    enum Verdict: Equatable {
        /// It may be said, as this (made printable, measured).
        case pass(String)
        /// It waits for the silenced file's reading, and is judged again once it is read.
        case waiting
        /// It waits for a claim of its account's chat budget (`ChatLeases`), which the server
        /// makes; judged again once it is answered.
        case claiming(PlayerIdentity)
        case refused(WireError)
    }

    let policy: ChatPolicy
    private let log: ThrottledLog
    private let loop: EventLoop
    /// What each person has said lately, against the chat limit.
    private(set) var allowance: ChatAllowance
    /// Who the operator silenced (a file read again when it changes, off the loop).
    private var silence: ChatSilence
    private let reader: SilenceReader
    /// Chat lines said while the silenced file is being read, judged by its new list.
    private var waiting: [WaitingChatLine] = []
    /// On a node: which accounts' chat budgets this node holds (`ChatLeases`); nil on a server alone.
    var leases: ChatLeases?
    /// Lines waiting for a claim of their account's budget.
    private var claimWaiting: [PlayerIdentity: [WaitingChatLine]] = [:]

    /// `watchesFile`: false on a node, whose list is the store's (`putInForce`).
    init(policy: ChatPolicy, dataDirectory: String?, loop: EventLoop, log: ThrottledLog, watchesFile: Bool = true) {
        self.policy = policy
        self.loop = loop
        self.log = log
        allowance = ChatAllowance(lines: policy.linesPerWindow, windowMs: policy.windowMs)
        silence = ChatSilence(path: watchesFile ? policy.silencedFile ?? dataDirectory.map { "\($0)/silenced" } : nil)
        reader = SilenceReader(file: policy.silencedReader ?? .disk)
    }

    /// Whether `connection` may say `text` now, by the server's rules; `hasAccount` says whether
    /// it speaks for an account (its allowance is then its own, not its address's).
    func judge(_ text: String, in requested: ChatRoom?, id: JSONValue?, from connection: Connection, hasAccount: Bool,
               at now: Instant) -> Verdict {
        switch policy.mode {
        case .off: return .refused(WireError(.chatOff, "Chat is off on this server."))
        case .players where connection.isSpectator:
            return .refused(WireError(.chatOff, "On this server only players talk; spectators read the players' room."))
        case .on, .players: break
        }
        if let path = silence.changed(at: now, log: { self.log($0) }) {
            reader.start(path) { [loop] in loop.wake() }
        }
        // A line said after the operator changed the file is judged by what the file says now.
        if silence.isReading, waiting.count < Self.mostWaitingChatLines {
            waiting.append(WaitingChatLine(text: text, room: requested, id: id, connection: connection.id))
            return .waiting
        }
        if silence.list.silences(connection.identity, address: connection.address) {
            return .refused(WireError(.chatSilenced, "The operator of this server has silenced you; you can still play and read."))
        }
        // What nobody could see is refused before it costs a line of the allowance; a repeat is
        // judged on the line as it would be said.
        let line: String
        switch ChatText.said(text) {
        case .failure(let error): return .refused(error)
        case .success(let said): line = said
        }
        if connection.chatRepeat.repeats(line, at: now, windowMs: allowance.windowMs) {
            return .refused(WireError(.chatRepeated, "You said that a moment ago; it was not said again."))
        }
        if hasAccount, let decision = leases?.decide(connection.identity, at: now) {
            switch decision {
            case .judgeHere: break
            case .refuse(let retryAfterMs): return .refused(limited(retryAfterMs))
            case .claim, .wait:
                let line = WaitingChatLine(text: text, room: requested, id: id, connection: connection.id)
                guard claimWaiting[connection.identity, default: []].count < Self.mostWaitingPerClaim else { return .refused(limited(1_000)) }
                claimWaiting[connection.identity, default: []].append(line)
                return decision == .claim ? .claiming(connection.identity) : .waiting
            }
        }
        let counter = ChatCounter(identity: connection.identity, hasAccount: hasAccount, address: connection.address)
        if let retryAfterMs = allowance.allow(by: counter, at: now) {
            return .refused(limited(retryAfterMs))
        }
        return .pass(line)
    }

    /// The most lines of one account that wait for a claim of its budget.
    static let mostWaitingPerClaim = 16

    /// `chat_limited`, a line said again in `retryAfterMs`.
    private func limited(_ retryAfterMs: Int64) -> WireError {
        WireError(.chatLimited, "At most \(allowance.lines) lines per \(allowance.windowMs / 1_000) seconds; this one was not said.",
                  details: ["retryAfterMs": .int(retryAfterMs)])
    }

    /// A claim of `identity`'s budget was answered (nil: the store could not): the lines that
    /// waited for it, to be judged again now.
    func claimed(_ identity: PlayerIdentity, _ answer: ChatBudgetStore.Claim?, at now: Instant) -> [WaitingChatLine] {
        leases?.claimed(identity, answer, at: now)
        return claimWaiting.removeValue(forKey: identity) ?? []
    }

    /// Puts the service's list, read from the store, in force (a node's).
    func putInForce(_ list: SilenceList) { silence.finishReading(list) }

    /// Puts a finished reading of the silenced file in force, and hands back the lines that
    /// waited for it, in the order they came, to be judged again now; none while it is read.
    func takeReading() -> [WaitingChatLine] {
        guard silence.isReading, let outcome = reader.take() else { return [] }
        switch outcome {
        case .read(let list):
            list.notes.forEach { log($0) }
            silence.finishReading(list)
        case .unreadable(let path):
            log("chat: \(path) could not be read as UTF-8 text; the previous list stays")
            silence.finishReading(nil)
        }
        defer { waiting = [] }
        return waiting
    }
}
