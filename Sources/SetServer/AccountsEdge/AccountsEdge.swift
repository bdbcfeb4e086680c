import Foundation
import SetNet
import SetRatings
import SetRules
import SetWire
import Synchronization

/// The server's accounts edge, owned by the loop: every call to the accounts store goes to a lane
/// of the store gateway (a `SerialWorker`, a thread with its own connection), and each answer
/// comes back through the loop's inbox to the continuation that asked, on the loop. The *records*
/// lane commits finished games (retried with a backoff); the *player* lane answers admissions;
/// the *questions* lane (profile, history, crosstable, leaderboard) reads on a connection of its
/// own, read-only on SQLite, so a question never waits behind a record or an admission. The
/// player and questions lanes are bounded: a call they cannot queue is answered `unavailable` at
/// once. A store in memory has one connection, and the lanes are one. Nothing on the loop ever waits for
/// the store; only the server's start and stop, when no loop runs, use it directly
/// (`synchronously`).
final class AccountsEdge {
    /// The names kept for what the server hands out; the server says whether it has a door.
    var reservedNames = ReservedNames(houseBots: false)
    /// Who is rated against whom and who is listed on a leaderboard.
    let policy: RatingPolicy
    /// Wall-clock seconds, for the dates the store keeps; read on the loop when a call is made.
    var wallSeconds: () -> Int64 = { Int64(Date().timeIntervalSince1970) }
    /// The wall clock in milliseconds without nodes, counted on by the server's clock (`Server.wallNow`).
    let wall: LocalWallClock
    /// At most this many account questions wait for the store from one connection, and from all.
    let questionBound: (perConnection: Int, total: Int)
    private let playerLane: SerialWorker<AccountStore>
    /// The records' own lane; nil: they go to the player lane (a store with one connection).
    private let recordsLane: SerialWorker<AccountStore>?
    /// The questions' own lane; nil: they go to the player lane.
    private let questionsLane: SerialWorker<AccountStore>?
    private let clock: TimeSource
    private let log: ServerLog
    private var inbox: LoopInbox<Int>?
    private var waiting: [Int: () -> Void] = [:]
    private var lastTicket = 0
    private var questionsWaiting: [ConnectionID: Int] = [:]
    private var questionsInAll = 0
    /// Finished games whose record the store has not committed yet, by commitment.
    private var unsaved: [String: UnsavedGame] = [:]
    private var retries = DeadlineQueue<String>()
    /// The connections whose identity owns an account, as learnt at their join (or from the door):
    /// chat counts such a speaker by account without asking the store each line.
    private var owners: Set<ConnectionID> = []
    /// Records committed and not yet published, by commitment (`recordState` takes them).
    private var committed: [String: GameRecord?] = [:]

    /// How long a finished game's record is tried again while the store cannot take it (a
    /// PostgreSQL restarted or away): past this from its first failed try, it is given up as a
    /// record the store refuses is, and the operator is told in the log.
    static let recordPatienceMs: Int64 = 600_000

    /// How long a stopping server waits for each lane's last call (a record being committed):
    /// a store that does not answer does not hold the exit past Kubernetes' 30 s grace.
    static let stopWaitMs: Int64 = 5_000

    /// Whether `stop()` closes the store's connections: the server's own store, not one a test
    /// gave it and reads after the stop.
    private let closesStore: Bool

    /// `records`, a second connection to the same store, gives finished games a lane of their own;
    /// `questions`, a third (read-only on SQLite), gives account questions theirs.
    init(store: sending AccountStore, records: sending AccountStore? = nil, questions: sending AccountStore? = nil, loop: EventLoop,
         clock: TimeSource, log: ServerLog,
         policy: RatingPolicy = .standard, questionBound: (perConnection: Int, total: Int) = (32, 512), laneCapacity: Int = 4_096,
         closesStore: Bool = false) {
        self.closesStore = closesStore
        playerLane = SerialWorker(store, threadName: "setgame.accounts.player", capacity: laneCapacity)
        if let records {
            recordsLane = SerialWorker(records, threadName: "setgame.accounts.records")
        } else {
            recordsLane = nil
        }
        if let questions {
            questionsLane = SerialWorker(questions, threadName: "setgame.accounts.questions", capacity: laneCapacity)
        } else {
            questionsLane = nil
        }
        self.clock = clock
        wall = LocalWallClock(clock: clock)
        self.log = log
        self.policy = policy
        self.questionBound = questionBound
        inbox = loop.inbox { [unowned self] (tickets: [Int]) in
            for ticket in tickets { waiting.removeValue(forKey: ticket)?() }
        }
    }

    /// Calls the store at once, on the calling thread: only while no worker runs (the server's
    /// start, before its loop, and its stop, after).
    func synchronously<Answer: Sendable>(_ call: (AccountStore) throws(StoreError) -> Answer) throws(StoreError) -> Answer {
        try playerLane.withSubject(call)
    }

    /// Hands the store to the lanes' threads: from now on every call goes through `ask`.
    func start() {
        playerLane.start()
        recordsLane?.start()
        questionsLane?.start()
    }

    /// Lets the calls already asked finish (a record among them is committed, though its answer
    /// is never heard), then ends the lanes, waiting at most `stopWaitMs` for each. True when
    /// every lane ended and the store is the caller's again.
    @discardableResult
    func stop() -> Bool {
        let bound = Duration.milliseconds(Self.stopWaitMs)
        // Each lane's connection is closed as its last call, one lane after the other: the last
        // SQLite connection to close folds the write-ahead log into the file, so the file alone is
        // complete after a clean stop; two closing at once could each leave it to the other. The
        // questions' connection goes first: a read-only one cannot fold the log.
        if closesStore { questionsLane?.submit { $0.close() } }
        let questions = questionsLane?.stop(waitingAtMost: bound) ?? true
        if closesStore { recordsLane?.submit { $0.close() } }
        let records = recordsLane?.stop(waitingAtMost: bound) ?? true
        if closesStore { playerLane.submit { $0.close() } }
        let player = playerLane.stop(waitingAtMost: bound)
        if !(questions && records && player) { log("the accounts store did not answer within \(Self.stopWaitMs) ms; stopping without its last calls") }
        return questions && records && player
    }

    func noteOwner(_ connection: ConnectionID, _ owns: Bool) {
        if owns { owners.insert(connection) } else { owners.remove(connection) }
    }

    func ownsAccount(_ connection: ConnectionID) -> Bool { owners.contains(connection) }

    // MARK: Asking

    /// The gateway's lanes to the accounts store.
    enum Lane { case records, player, questions }

    /// Calls the store off the loop, on `lane` (the player lane unless said); `then` runs on the
    /// loop with the answer, `unavailable` (through the inbox, never inside this call) when the
    /// lane holds as many calls as it queues.
    func ask<Answer: Sendable>(on lane: Lane = .player, _ call: @escaping @Sendable (AccountStore) throws(StoreError) -> Answer,
                               then answer: @escaping (Result<Answer, StoreError>) -> Void) {
        guard let inbox else { return }
        lastTicket += 1
        let ticket = lastTicket, slot = AnswerSlot<Answer, StoreError>(missing: .unavailable("the worker left no answer"))
        waiting[ticket] = { answer(slot.take()) }
        let worker = switch lane {
        case .records: recordsLane ?? playerLane
        case .player: playerLane
        case .questions: questionsLane ?? playerLane
        }
        let queued = worker.submit { store in
            slot.put(Result { () throws(StoreError) -> Answer in try call(store) })
            inbox.post(ticket)
        }
        guard !queued else { return }
        slot.put(.failure(.unavailable("\(worker.waiting) calls wait for the accounts store already")))
        inbox.post(ticket)
    }

    /// An account question from `connection`, asked on the questions lane unless it (or everyone
    /// together) already has as many waiting as `questionBound` allows: false then, and nothing
    /// is asked, so one client cannot fill the worker's queue. `call` only reads, unless it is
    /// asked on another `lane` (the questions lane's SQLite connection is read-only).
    func askQuestion<Answer: Sendable>(from connection: ConnectionID, on lane: Lane = .questions,
                                       _ call: @escaping @Sendable (AccountStore) throws(StoreError) -> Answer,
                                       then answer: @escaping (Result<Answer, StoreError>) -> Void) -> Bool {
        let mine = questionsWaiting[connection] ?? 0
        guard mine < questionBound.perConnection, questionsInAll < questionBound.total else { return false }
        questionsWaiting[connection] = mine + 1
        questionsInAll += 1
        ask(on: lane, call) { [unowned self] result in
            questionsInAll -= 1
            let left = (questionsWaiting[connection] ?? 1) - 1
            questionsWaiting[connection] = left > 0 ? left : nil
            answer(result)
        }
        return true
    }

    // MARK: Finished games

    /// Records a finished game off the loop, retried with a backoff on the server's clock while
    /// the store is unavailable. `delayed` runs on the loop the first time the store could not
    /// commit it; `committed` once it did (`recordState` then finds the record), or once the
    /// store refused it for good (`StoreError.rejected`) or could not take it for
    /// `recordPatienceMs`: it is published unrated, with no record.
    func record(_ finished: FinishedGame, journal: String, delayed: @escaping () -> Void, committed: @escaping () -> Void) {
        let commitment = finished.commitment
        guard unsaved[commitment] == nil, self.committed[commitment] == nil else { return }
        unsaved[commitment] = UnsavedGame(finished: finished, journal: journal, wallSeconds: wallSeconds(), delayed: delayed,
                                          committed: committed)
        attempt(commitment)
    }

    /// Runs `retry` on the loop once the record of `finished` is committed (and published) or
    /// the store failed to commit it a first time: a join or a snapshot waits for the game's end
    /// to be told rather than be refused while a healthy store takes it. False (nothing waits):
    /// the store has failed already, or the game is not on its way to it.
    func afterRecord(of finished: FinishedGame, _ retry: @escaping () -> Void) -> Bool {
        guard var game = unsaved[finished.commitment], game.failures == 0 else { return false }
        game.waiting.append(retry)
        unsaved[finished.commitment] = game
        return true
    }

    /// Where a finished game's record stands, for `MatchRoom.publish`: a committed one is
    /// handed over once, as the room publishes what waited for it.
    func recordState(of finished: FinishedGame) -> RecordState {
        guard let record = committed.removeValue(forKey: finished.commitment) else { return .unwritten }
        return .committed(record)
    }

    /// When the next record the store could not commit is tried again.
    var nextRetry: Instant? { retries.earliest }

    /// Tries again the records whose backoff ended.
    func retryDue(at now: Instant) {
        for commitment in retries.popDueKeys(at: now) where unsaved[commitment] != nil { attempt(commitment) }
    }

    /// How long a record waits after its `failures`th failed try: half a second, doubling, at
    /// most half a minute.
    static func backoffMs(after failures: Int) -> Int64 { min(500 << Int64(min(failures - 1, 10)), 30_000) }

    /// Publishes a game whose record will not be written: unrated, in nobody's history.
    private func giveUp(_ commitment: String, _ game: UnsavedGame) {
        unsaved[commitment] = nil
        committed[commitment] = .some(nil)
        game.committed()
        game.waiting.forEach { $0() }
    }

    private func attempt(_ commitment: String) {
        guard var game = unsaved[commitment] else { return }
        // The backoff counts from the try, not from its answer: the next try is as due, on the
        // server's clock, however long the store took to fail.
        game.triedAt = clock.now()
        unsaved[commitment] = game
        let policy = policy, finished = game.finished, journal = game.journal, wall = game.wallSeconds
        ask(on: .records, { store throws(StoreError) in try store.record(finished, journal: journal, wallSeconds: wall, policy: policy) }) { [unowned self] result in
            guard var game = unsaved[commitment] else { return }
            switch result {
            case .success(let record):
                unsaved[commitment] = nil
                self.committed[commitment] = .some(record)
                if game.failures > 0 { log("wrote the record of \(finished.match) game \(finished.game) after \(game.failures) failed tries: its game over is told") }
                game.committed()
                game.waiting.forEach { $0() }
            case .failure(.rejected(let reason)):
                // Trying again would fail the same way: the game stands unrated and unrecorded,
                // and what waited behind it is told, so the match goes on.
                giveUp(commitment, game)
                log("the accounts store refused the record of \(finished.match) game \(finished.game) (\(reason)): it is published unrated and not recorded; the match goes on")
            case .failure(let error) where game.failedSince.map({ game.triedAt.milliseconds(since: $0) >= Self.recordPatienceMs }) ?? false:
                giveUp(commitment, game)
                log("OPERATOR: the accounts store could not take the record of \(finished.match) game \(finished.game) for \(Self.recordPatienceMs / 1_000) s (\(error)): it is given up, published unrated and not recorded; the match goes on")
            case .failure(let error):
                game.failures += 1
                if game.failedSince == nil { game.failedSince = game.triedAt }
                let waiting = game.waiting
                game.waiting = []
                unsaved[commitment] = game
                let delay = Self.backoffMs(after: game.failures)
                log("cannot write the record of \(finished.match) game \(finished.game) (\(error)): its game over waits until it is written; trying again in \(delay) ms")
                retries.add(commitment, at: game.triedAt.adding(delay))
                if game.failures == 1 { game.delayed() }
                waiting.forEach { $0() }
            }
        }
    }
}

/// A finished game on its way to the store.
private struct UnsavedGame {
    let finished: FinishedGame
    let journal: String
    /// When it ended, as the store keeps it: the same at every try.
    let wallSeconds: Int64
    let delayed: () -> Void
    let committed: () -> Void
    var failures = 0
    /// Requests that wait for the game's end to be told (`afterRecord`).
    var waiting: [() -> Void] = []
    var triedAt = Instant(milliseconds: 0)
    /// When its first failed try was made; nil while none failed.
    var failedSince: Instant?
}
