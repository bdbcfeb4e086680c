import SetRatings
import SetRules
import SetWire

/// Something that happens to a match: a request, a timer, a change of presence, or news of its
/// journal. `MatchHost.handle` takes one at a time; a journal replays as a list of them.
enum HostInput: Equatable {
    /// A player takes `seat` (or the first free one) with a fresh token; `rating` is its
    /// account's in the match's variant, shown in its `player_joined`.
    case join(name: String, token: String, connection: ConnectionID, seat: Seat?, account: SeatAccount? = nil, rating: Rating? = nil)
    /// A seat's owner is back, on `connection`.
    case resume(Seat, connection: ConnectionID)
    /// A spectator came, or one left (`MatchRoom` keeps who they are).
    case spectatorCame
    case spectatorLeft
    /// A player's connection is gone: the seat waits for them.
    case leave(ConnectionID)
    /// The server restarted: every seat still connected is away, keeping its window.
    case restart
    case act(Action, by: Seat)
    /// The clock reached the host's `nextDeadline`: windows end, a forfeit happens.
    case timers
    /// A changed spectator count may be announced now.
    case announceSpectators
    /// A journaled spectator count, replayed.
    case spectatorCount(Int)
    /// The journal stopped taking writes.
    case journalStalled
    /// The journal takes writes again.
    case journalWorks
    /// A chat line the journal says was said in a room (nil: the speaker's own); live lines
    /// come through `MatchRoom.chat`, whose checks a replay does not repeat.
    case chat(room: ChatRoom?, by: ChatSpeaker, text: String)
}

/// What one input produced, with the reply its kind of input has (`JoinReply`, `ActReply`...). It
/// is performed in order: the journal records are written first, and only once they are on disk
/// are the messages sent and the reply given (`MatchRoom`).
struct HostOutput<Reply: Equatable>: Equatable {
    /// What to send, in order, each to its recipients.
    var messages: [HostMessage] = []
    /// The match's journal records for this input.
    var journal: [JournalRecord] = []
    /// Whether the records must reach the disk at once (seat tokens, seeds, a game's end).
    var syncJournal = false
    /// Whether the records tell of something that happened whatever the disk says (a player left
    /// or came back, a spectator count): unwritten, they wait for the stall's end. Otherwise the
    /// change happens only if they are written: unwritten, it is undone and refused. Which it is
    /// follows from the input, so the room performs each kind by its own path (`MatchRoom+Inputs`).
    var isFact = false
    /// The match is worth a file from now on: its journal's next write creates it.
    var keepJournal = false
    /// A game ended with this input: what the accounts are to record (`MatchRoom` hands it on).
    /// It is the host's output, not a flag read back from it: only the input that ended the game
    /// carries it.
    var finished: FinishedGame?
    var reply: Reply

    init(messages: [HostMessage] = [], journal: [JournalRecord] = [], syncJournal: Bool = false, isFact: Bool = false,
         keepJournal: Bool = false, reply: Reply) {
        self.messages = messages
        self.journal = journal
        self.syncJournal = syncJournal
        self.isFact = isFact
        self.keepJournal = keepJournal
        self.reply = reply
    }

    /// Adds what a later step of the same input produced: its messages and records after these,
    /// and the game it ended, if it ended one.
    mutating func append<Other>(_ later: HostOutput<Other>) {
        messages += later.messages
        journal += later.journal
        syncJournal = syncJournal || later.syncJournal
        keepJournal = keepJournal || later.keepJournal
        finished = later.finished ?? finished
    }

    /// The same output with its reply seen as another type (a typed reply as any input's).
    func replying<Other>(_ transform: (Reply) -> Other) -> HostOutput<Other> {
        var other = HostOutput<Other>(messages: messages, journal: journal, syncJournal: syncJournal, isFact: isFact,
                                      keepJournal: keepJournal, reply: transform(reply))
        other.finished = finished
        return other
    }
}

extension HostOutput where Reply == NoReply {
    init(messages: [HostMessage] = [], journal: [JournalRecord] = [], syncJournal: Bool = false, isFact: Bool = false,
         keepJournal: Bool = false) {
        self.init(messages: messages, journal: journal, syncJournal: syncJournal, isFact: isFact, keepJournal: keepJournal,
                  reply: NoReply())
    }
}

extension HostOutput where Reply == HostReply {
    init(messages: [HostMessage] = [], journal: [JournalRecord] = [], syncJournal: Bool = false, isFact: Bool = false,
         keepJournal: Bool = false) {
        self.init(messages: messages, journal: journal, syncJournal: syncJournal, isFact: isFact, keepJournal: keepJournal,
                  reply: .none)
    }
}

/// The answer to an input nobody waits on (a timer, a leave, a spectator count).
struct NoReply: Equatable {}

/// A join's answer: the seat taken, or why none was.
enum JoinReply: Equatable {
    case seated(Seat)
    case refused(WireError)
}

/// A resume's answer: the connection that held the seat until now, which must be closed.
struct ResumeReply: Equatable {
    var replaced: ConnectionID?
}

/// An action's answer: accepted, its events numbered up to `seq`, or refused.
enum ActReply: Equatable {
    case accepted(seq: Int)
    case refused(WireError)
    /// A claim held for a rival's, or an action waiting behind it: its answer comes as a
    /// `HostMessage.answer` once the race is decided.
    case held
}

/// Any input's answer, for `MatchHost.handle` (replay and tests), which takes inputs of every
/// kind; each typed reply maps into it, never the other way.
enum HostReply: Equatable {
    case none
    case seated(Seat)
    /// Back in a seat; `replaced` held it until now and must be closed.
    case resumed(replaced: ConnectionID?)
    /// An action was accepted; its events are numbered up to `seq`.
    case accepted(seq: Int)
    case refused(WireError)

    init(_ reply: NoReply) { self = .none }

    init(_ reply: JoinReply) {
        switch reply {
        case .seated(let seat): self = .seated(seat)
        case .refused(let error): self = .refused(error)
        }
    }

    init(_ reply: ResumeReply) { self = .resumed(replaced: reply.replaced) }

    init(_ reply: ChatReply) {
        switch reply {
        case .said: self = .none
        case .refused(let error): self = .refused(error)
        }
    }

    init(_ reply: ActReply) {
        switch reply {
        case .accepted(let seq): self = .accepted(seq: seq)
        case .refused(let error): self = .refused(error)
        case .held: self = .none
        }
    }
}

/// A message a host wants sent, typed, with who hears it; `MatchRoom` encodes it once for all.
enum HostMessage: Equatable {
    /// A numbered event as the match hears it: kept for a player back from a short drop.
    case event(WireEvent, to: Audience)
    /// A paid hint with its cards, for the player who paid alone (the others hear it without).
    case hint(WireEvent, to: Seat)
    /// How many sets a table that is no longer live held, for spectators only.
    case insight(match: String, seq: Int, setsOnTable: Int)
    /// A coded notice for everyone in the match (its journal stalled).
    case notice(WireError)
    /// A chat line, for those who may read its room now.
    case chat(ChatLine, to: Audience)
    /// A spectators' line held back from the players while their game was on, for them at its
    /// end: not journaled (the journal's `chat` record said it), not a new line said.
    case heldChat(ChatLine)
    /// The seats' round trips, for every scoreboard: not an event, not journaled.
    case roundTrips(match: String, ms: [Int64?])
    /// The late answer to a held request (`ActReply.held`): its ack or its error, for its sender.
    case answer(ServerMessage, to: Seat)

    var message: ServerMessage {
        switch self {
        case .event(let event, _), .hint(let event, _): .event(event)
        case .insight(let match, let seq, let count): .insight(match: match, seq: seq, setsOnTable: count)
        case .notice(let error): .error(error, id: nil)
        case .chat(let line, _), .heldChat(let line): .chat(line)
        case .answer(let message, _): message
        case .roundTrips(let match, let ms): .roundTrips(match: match, ms: ms)
        }
    }

    var audience: Audience {
        switch self {
        case .event(_, let audience): audience
        case .hint(_, let seat): .player(seat)
        case .insight: .spectators
        case .notice, .roundTrips: .everyone
        case .chat(_, let audience): audience
        case .heldChat: .players
        case .answer(_, let seat): .player(seat)
        }
    }
}

/// Who hears a message, by role: the room knows which connections hold each role when it sends.
enum Audience: Equatable {
    /// Every present player and every spectator.
    case everyone
    /// Everyone but the player in a seat (who is told apart: a paid hint).
    case everyoneBut(Seat)
    /// The player in a seat, if present.
    case player(Seat)
    /// Every present player, and no spectator.
    case players
    case spectators
}
