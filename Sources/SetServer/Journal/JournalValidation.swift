import SetRules
import SetWire

/// The checks a journal record passes before any host replays it: the ranges a wire request must
/// keep (names, rule settings, times, counts), and the order a live server writes records in. A
/// journal is a file anyone with the folder can edit, so it is read like a stranger's request.
struct JournalValidation {
    private var records = 0
    private var lastAt = Instant.zero
    private var lastSeq = 0
    private var games = 0

    /// Checks the next record, in file order.
    mutating func check(_ record: JournalRecord) throws(JournalRecord.Unreadable) {
        records += 1
        switch record {
        case .header(let name, _, let rules, _):
            guard records == 1 else { throw problem("a second header") }
            guard ClientMessageDecoder.isAcceptable(matchName: name) else { throw problem("match name \"\(ServerText.printable(name, limit: 40))\" is not 1-32 of A-Z a-z 0-9 - _ .") }
            if let trouble = rules.validationProblem() { throw problem("rules out of range: \(trouble)") }
        case _ where records == 1:
            throw problem("the first record is not the match header")
        case .seated(_, let name, let token, _, _, _):
            guard ClientMessageDecoder.isAcceptable(name: name, maxLength: ClientMessageDecoder.maxNameLength) else {
                throw problem("player name \"\(ServerText.printable(name, limit: 40))\" is not 1-\(ClientMessageDecoder.maxNameLength) printable characters")
            }
            guard Self.isSeatToken(token) else { throw problem("a seat token is not 32 hex digits, after its match's name and `~` or alone") }
        case .game(let number, _, let commitment, _):
            guard number == games + 1 else { throw problem("game \(number) follows game \(games)") }
            guard Self.isHex(commitment, digits: 64) else { throw problem("a commitment is not 64 hex digits") }
            games = number
        case .watchers(let count, _, _):
            guard WireRange.count.contains(Int64(count)) else { throw problem("\(count) spectators") }
        case .chat(_, _, let name, _, _):
            guard ClientMessageDecoder.isAcceptable(name: name, maxLength: ClientMessageDecoder.maxNameLength) else {
                throw problem("chat name \"\(ServerText.printable(name, limit: 40))\" is not 1-\(ClientMessageDecoder.maxNameLength) printable characters")
            }
        case .acted, .away, .back, .tick, .stalled, .restarted, .unstalled, .race:
            break
        }
        if let seq = record.seq {
            guard WireRange.count.contains(Int64(seq)) else { throw problem("event number \(seq) is out of range 0...2^53") }
            guard seq >= lastSeq else { throw problem("event number \(seq) comes after \(lastSeq)") }
            lastSeq = seq
        }
        if let at = record.instant {
            guard WireRange.serverTime.contains(at.milliseconds) else { throw problem("time \(at.milliseconds) is out of range 0...2^53 ms") }
            guard at >= lastAt else { throw problem("time \(at.milliseconds) comes before \(lastAt.milliseconds): records out of order") }
            lastAt = at
        }
    }

    private func problem(_ reason: String) -> JournalRecord.Unreadable { JournalRecord.Unreadable(reason: reason) }

    /// 32 hex digits, after a match's name and `~` (`TokenMatch`) or alone (a private match's, or
    /// a journal written before tokens named their match).
    static func isSeatToken(_ token: String) -> Bool {
        guard let separator = token.firstIndex(of: TokenMatch.separator) else { return isHex(token, digits: 32) }
        return TokenMatch.match(of: token) != nil && isHex(String(token[token.index(after: separator)...]), digits: 32)
    }

    private static func isHex(_ text: String, digits: Int) -> Bool {
        text.utf8.count == digits && text.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }
    }
}
