import SetRules

/// Whose chat lines are counted together: a known identity wherever it connects from, a guest
/// by its address, so opening more connections buys no more lines.
enum ChatCounter: Hashable {
    case identity(PlayerIdentity)
    case address(String)

    init(identity: PlayerIdentity, address: String) {
        self = identity == .guest ? .address(address) : .identity(identity)
    }
}

/// The chat limit of every person on the server, as lichess has it: a few lines per window.
/// Pure: time is passed in. (The other limit, no line twice in a row, is each connection's:
/// `ChatRepeat`, so two guests behind one address may both say "gg".)
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

/// What a connection said last, so it cannot say it again at once; case and runs of spaces do
/// not make a line new.
struct ChatRepeat {
    private var last = ""

    /// Whether `text` repeats the last line said.
    func repeats(_ text: String) -> Bool { Self.normalised(text) == last }

    /// `text` was said: it is the one not to repeat now.
    mutating func said(_ text: String) { last = Self.normalised(text) }

    private static func normalised(_ text: String) -> String {
        text.lowercased().split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }
}
