import SetRules
import SetWire

// An arena's state on the wire (Protocol.md, "Arenas"): each `arena` line is the whole state,
// so a follower never needs a state it missed, only the latest. A loop turn's changes go as one
// line, at the turn's end, and a follower still reading an earlier state is not sent the states
// between: it is owed the latest, sent once its queue has room. At 200 players a state is some
// 34 KB, and each join, pairing and count changes it: pushing every state to every follower
// queued 200 × 200 of them during the joins alone, and cut every player off as a slow consumer.
extension Server {
    /// At the loop turn's end: each arena that changed this turn pushed once, then the latest
    /// state to each owed follower whose queue has room for it now.
    func pushDueArenas() {
        // Most turns have nothing to push: they skip the sorting too.
        guard !arenaRooms.due.isEmpty || !arenaRooms.owed.isEmpty else { return }
        let now = clock.now()
        for name in arenaRooms.due.sorted() {
            guard let room = arenaRooms[name], room.version != room.pushedVersion else {
                arenaRooms.due.remove(name)
                continue
            }
            // Pushed within the last second: it stays due, and the loop wakes for it (`arenaPushDue`).
            guard arenaRooms.paces[name, default: PushPace()].allows(at: now) else { continue }
            arenaRooms.due.remove(name)
            arenaRooms.paces[name, default: PushPace()].pushed(at: now)
            push(room)
        }
        for id in arenaRooms.owed.sorted() {
            guard let connection = connections[id], !connection.closeWhenFlushed, let room = arenaRooms.room(of: id) else {
                arenaRooms.owed.remove(id)
                continue
            }
            if hasRoom(for: room.pushedLine, on: connection) {
                arenaRooms.owed.remove(id)
                enqueue(room.pushedLine, to: connection)
            }
        }
    }

    /// When the first arena held back by its pace may be pushed, if one is.
    func arenaPushDue(at now: Instant) -> Instant? {
        arenaRooms.due.compactMap { name in
            arenaRooms[name].flatMap { $0.version == $0.pushedVersion ? nil : arenaRooms.paces[name]?.nextAllowed(after: now) }
        }.min()
    }

    /// One `arena` line (no `id`) to every connection following the room with room for it; the
    /// others are owed it. A state the same as the last pushed goes to nobody: a watcher's
    /// coming, a row saved again or a player joining again changed nothing a follower is shown.
    private func push(_ room: ArenaRoom) {
        room.pushedVersion = room.version
        let (view, line) = room.cpu.measure {
            let view = room.view()
            return (view, room.isNews(view) ? ServerMessageCoding.line(.arena(view, id: nil)) : nil)
        }
        tellIfFinal(view, of: room)
        guard let line else { return }
        room.pushed(view, line: line)
        for id in room.members.keys.sorted() {
            guard let connection = connections[id], !connection.closeWhenFlushed else { continue }
            if hasRoom(for: line, on: connection) {
                arenaRooms.owed.remove(id)
                enqueue(line, to: connection)
            } else {
                arenaRooms.owed.insert(id)
            }
        }
    }

    /// Logs, once, the CPU the arena's pairing and standings took here, when `view` is final.
    private func tellIfFinal(_ view: ArenaView, of room: ArenaRoom) {
        guard view.state == .finished, view.boards.isEmpty, !room.cpu.told else { return }
        room.cpu.told = true
        log("arena \(room.name): final after \(view.standings.map(\.games).reduce(0, +) / 2) duels; its pairing and standings took "
            + "\(room.cpu.nanoseconds / 1_000) µs of CPU here")
    }

    /// Answers `connection`'s request with the arena's state now (as a follower, it is pushed
    /// the next state that differs from this one).
    func answerState(of room: ArenaRoom, id: JSONValue?, to connection: Connection) {
        let view = room.view()
        room.answered(view)
        send(.arena(view, id: id), to: connection)
    }

    /// Whether a state may be queued for `connection` now: an empty queue always takes it (a
    /// state too big for the queue is the slow-consumer limit's to judge), a busy one while
    /// it stays within half the queue's limit, so states never crowd out its matches' events.
    private func hasRoom(for line: [UInt8], on connection: Connection) -> Bool {
        let waiting = connection.socket.pendingBytes
        return waiting == 0 || waiting + line.count <= config.limits.outboundQueueBytes / 2
    }
}
