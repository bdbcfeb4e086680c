import Foundation
import Glibc
import SetNet
import SetRules

/// The `flock` a server holds on its data folder while it runs.
struct FolderLock {
    let fd: Int32

    func release() { Glibc.close(fd) }
}

/// The `--data` folder: one journal per live match at the top, finished ones under `finished/`,
/// damaged ones set aside under `damaged/` with the reason in the log.
struct JournalDirectory {
    let path: String
    let log: ServerLog
    var faults: JournalFaults?
    /// Wall-clock seconds, for the names of files set aside; tests fix it.
    var wallSeconds: @Sendable () -> Int = { Int(Date().timeIntervalSince1970) }

    var finishedPath: String { path + "/finished" }
    var damagedPath: String { path + "/damaged" }
    /// The accounts database's folder: apart from the journals, which are every `.jsonl` at the top.
    var accountsPath: String { path + "/accounts" }

    /// Takes the folder for this process alone, with `flock`: two servers on one folder would
    /// adopt each other's matches and interleave their journals. The lock goes with the process.
    func lock() throws(SystemCallError) -> FolderLock {
        let fd = open(path + "/lock", O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard fd >= 0 else { throw SystemCallError("open \(path)/lock") }
        do throws(SystemCallError) { try FileCalls.lockExclusively(fd, "lock the data folder \(path)") } catch {
            Glibc.close(fd)
            throw error
        }
        return FolderLock(fd: fd)
    }

    /// Whether this process may write in the folder.
    var isWritable: Bool { access(path, W_OK) == 0 }

    func journalPath(for match: String) -> String { "\(path)/\(match).jsonl" }

    /// A new journal for a new match, its header written. Its file is created only once the
    /// match holds something worth keeping; a file already there then belongs to an older match
    /// of the same name: it is retired first, never appended to.
    func create(for room: MatchRoom) -> MatchJournal? {
        let host = room.host
        let path = journalPath(for: host.name)
        let name = host.name
        // `unowned`, not `weak`: a weak reference gives the room a side table, and then every
        // retain and release of it (several per delivery) takes the runtime's slow path. The room
        // owns its journal and is the only one to write it, so it is alive whenever this runs.
        let journal = MatchJournal(deferred: path, faults: faults) { [self, unowned room] in
            if FileManager.default.fileExists(atPath: path) { retire(path, named: name, at: room.host.lastActivity) }
        }
        journal.write([.header(name: host.name, mode: host.mode, rules: host.settings, variant: host.variant)])
        return journal
    }

    /// Deletes the journal of a match abandoned before anyone moved: nothing in it is worth a file.
    func discard(_ room: MatchRoom) {
        room.journal?.discard()
        room.journal = nil
    }

    /// Every match in the folder, replayed; damaged journals are moved aside and the rest still load.
    /// Nothing is written to them yet: `restart` does that once the server's clock is known.
    /// A game the journal ends is told with the ratings of its record (`recorded` finds it, or
    /// writes one the server stopped before writing), exactly as it was sent before the stop;
    /// without a committed record, it and all after it wait in the room, unencoded. Without
    /// `recorded` (no accounts), events are kept as the journal tells them.
    func restoreAll(seatWaitMs: Int64, spectatorAnnounceMs: Int64,
                    recorded: ((FinishedGame) -> RecordState)? = nil) -> [MatchRoom] {
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).filter { $0.hasSuffix(".jsonl") }.sorted()
        var rooms: [MatchRoom] = []
        for name in names {
            let file = "\(path)/\(name)"
            do {
                let contents = try JournalFile.read(file)
                if contents.droppedTail > 0 { log("\(name): dropped a torn last line (\(contents.droppedTail) bytes)") }
                // The replayed events are kept as they were sent, for players who resume.
                var history = EventHistory()
                var unpublished = UnpublishedGames()
                let host = try JournalReplay.host(from: contents.records, seatWaitMs: seatWaitMs, spectatorAnnounceMs: spectatorAnnounceMs) {
                    var told = $0.messages
                    if let recorded {
                        told = unpublished.hold(told, finished: $0.finished) + unpublished.release(committed: recorded).messages
                    }
                    for message in told { _ = history.encode(message) }
                }
                if let problem = Self.restoreProblem(host, file: name) {
                    setAside(file, saying: "journal \(name) \(problem); the other matches still load")
                    continue
                }
                // A match over or still waiting comes back too: its players' acknowledged seats and
                // rematch requests are kept, and the lobby retires it if nobody returns. New games
                // are dealt from the server's seeds (`Lobby.adopt`), never from anything the
                // journal implies; until then, unpredictable ones.
                let room = MatchRoom(host: host, journal: try MatchJournal(path: file, faults: faults), history: history,
                                     unpublished: unpublished) {
                    var generator = SystemRandomNumberGenerator()
                    return generator.next()
                }
                rooms.append(room)
                log("restored \(host.name): game \(host.game), \(host.match?.table.count ?? 0) cards on the table, waiting for its players")
            } catch {
                setAside(file, saying: "journal \(name) is damaged (\(error)); the other matches still load")
            }
        }
        return rooms
    }

    /// Why a journal that replays cleanly still cannot come back, or nil. A copy of a journal (the
    /// README says backups are copies) would be a second room of the same match, whose seats and
    /// tokens the first one holds: a match's journal is its name's file, any other is set aside.
    /// Times past `RestoredClock.ceilingMs` would carry the server's clock to the end of the range
    /// every client accepts.
    static func restoreProblem(_ host: MatchHost, file: String) -> String? {
        if file != "\(host.name).jsonl" {
            return "holds match \"\(host.name)\", whose journal is \(host.name).jsonl: it is a copy or was renamed"
        }
        if host.lastActivity.milliseconds > RestoredClock.ceilingMs {
            return "is damaged (its times reach \(host.lastActivity.milliseconds) ms, past \(RestoredClock.ceilingMs) ms, where no server's clock gets)"
        }
        return nil
    }

    /// The server is back, its clock at `now`: each restored match marks the players still seated
    /// when it stopped away from this instant on, which is later than any time handed out before.
    func restart(_ rooms: [MatchRoom], at now: Instant) {
        for room in rooms {
            // Nobody is connected yet: what the restart says is only kept, for players who resume.
            _ = room.restart(at: max(now, room.host.lastActivity))
            if room.host.stalledAt != nil {
                log("journal of \(room.host.name) cannot be written (\(room.journal?.failure ?? "")): it is paused until it can")
            }
        }
    }

    /// Moves a match's journal under `finished/`, where `setgame replay` can read it.
    func retire(_ room: MatchRoom) {
        room.journal?.close()
        room.journal = nil  // an open descriptor follows its file when it is renamed
        retire(journalPath(for: room.host.name), named: room.host.name, at: room.host.lastActivity)
    }

    private func retire(_ file: String, named name: String, at instant: Instant) {
        guard FileManager.default.fileExists(atPath: file) else { return }
        let target = DamagedFiles.unused("\(finishedPath)/\(name)-\(wallSeconds())-\(instant.milliseconds)", ".jsonl")
        do { try FileManager.default.moveItem(atPath: file, toPath: target) } catch {
            log("cannot move \(file) to \(target): \(error)")
        }
    }
}
