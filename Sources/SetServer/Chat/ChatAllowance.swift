import SetRules
import SetWire

/// Whose chat lines are counted together: an account wherever it connects from, anyone else
/// by its address, so opening more connections buys no more lines.
enum ChatCounter: Hashable {
    case identity(PlayerIdentity)
    case address(String)

    /// `hasAccount`: the identity owns an account here. A key without one is no one yet: a
    /// client may invent a fresh `account` value for every connection, so until a key has played
    /// its lines count against its address, as a guest's do.
    init(identity: PlayerIdentity, hasAccount: Bool, address: String) {
        self = identity != .guest && hasAccount ? .identity(identity) : .address(address)
    }
}

/// The chat limit of every person on the server, as lichess has it: a few lines per window.
/// Pure: time is passed in. (The other limit, no line again at once, is each connection's:
/// `ChatRepeat`, so two guests behind one address may both say "nice find".)
struct ChatAllowance {
    private struct Person {
        /// When its last lines were said, oldest first, at most `lines` of them.
        var said: [Instant] = []
    }

    let lines: Int
    let windowMs: Int64
    private var people: [ChatCounter: Person] = [:]
    /// How many people were kept after the last sweep: the next sweep comes when that doubles,
    /// so many one-line speakers cost amortised O(1) each and memory stays bounded by the active.
    private var sweepAt = 64

    init(lines: Int, windowMs: Int64) {
        self.lines = max(1, lines)
        self.windowMs = max(1, windowMs)
    }

    /// Counts one line against `counter`'s allowance at `now`; over it, returns in how many
    /// milliseconds the oldest counted line leaves the window. A refused line is not counted.
    mutating func allow(by counter: ChatCounter, at now: Instant) -> Int64? {
        var person = people[counter] ?? Person()
        person.said.removeAll { now.milliseconds(since: $0) >= windowMs }
        if person.said.count >= lines, let oldest = person.said.first {
            people[counter] = person
            return max(1, windowMs - now.milliseconds(since: oldest))
        }
        person.said.append(now)
        people[counter] = person
        if people.count >= sweepAt { sweep(at: now) }
        return nil
    }

    /// Forgets those whose lines are all older than the window: their next line starts afresh
    /// (a repeat after a whole window is no flood).
    private mutating func sweep(at now: Instant) {
        people = people.filter { _, person in person.said.last.map { now.milliseconds(since: $0) < windowMs } ?? false }
        sweepAt = max(64, people.count * 2)
    }

    /// How many people are tracked now (for tests of the bound).
    var tracked: Int { people.count }
}

/// What a connection said lately, so it cannot say it again at once (lila's flood rule): a line
/// that reads as one of its last two (`VisibleText.folded`: invisible characters, case and
/// compatibility forms do not make a line new) within the window is refused. The window passes
/// and the line may be said again; a stock phrase (`StockPhrase`) may be said again at any time.
struct ChatRepeat {
    /// How many of its lines a connection may not repeat.
    static let remembered = 2
    private var recent: [(line: String, at: Instant)] = []

    /// Whether `text` repeats a line said less than `windowMs` before `now`.
    func repeats(_ text: String, at now: Instant, windowMs: Int64) -> Bool {
        let line = VisibleText.folded(text)
        guard !StockPhrase.isStock(line) else { return false }
        return recent.contains { $0.line == line && now.milliseconds(since: $0.at) < windowMs }
    }

    /// `text` was said at `now`: it is one not to repeat for a while.
    mutating func said(_ text: String, at now: Instant) {
        recent.append((VisibleText.folded(text), now))
        if recent.count > Self.remembered { recent.removeFirst(recent.count - Self.remembered) }
    }
}
