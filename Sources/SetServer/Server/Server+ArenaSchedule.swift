import SetArena

// Arenas on a schedule (`serve --arena-schedule`, README "Arenas on a schedule", issue 44): each
// slot's arena is written to the store one lead ahead of its start (`ArenaSchedule`), under a
// name made from its start, so it is listed (`startsInS`) and joinable before it starts, and made
// once for the whole service: every node with the setting writes it, and the store's unique name
// keeps one. Made arenas are held, paired and counted as any other.
extension Server {
    /// How soon a slot's arena the store did not take is asked for again.
    static let scheduleRetryMs: Int64 = 10_000

    /// Makes each due slot's arena not made yet from here, then sets the timer for the next slot.
    func keepArenaSchedule() {
        guard !config.arenaSchedules.isEmpty else { return }
        let wall = wallNow, now = clock.now()
        var due: Set<String> = [], next = Int64.max
        for schedule in config.arenaSchedules {
            for slot in schedule.slots(at: wall) {
                due.insert(slot.name)
                guard arenaRooms.scheduled.insert(slot.name).inserted else { continue }
                let variant = schedule.variant
                accounts.ask(on: .records, { store throws(StoreError) in try store.createScheduledArena(slot, variant: variant, wall: wall) }) {
                    [unowned self] result in
                    switch result {
                    case .success(true): log("arena \(slot.name) made for its slot (\(variant.rawValue), starts at \(slot.startsAt) ms wall)")
                    case .success(false): log("arena \(slot.name) was made for its slot already")
                    case .failure(let error):
                        log("arena \(slot.name) was not made for its slot: \(error); asked again in \(Self.scheduleRetryMs) ms")
                        arenaRooms.scheduled.remove(slot.name)
                        let retry = clock.now().adding(Self.scheduleRetryMs)
                        timers.arenaSchedule = min(timers.arenaSchedule ?? retry, retry)
                    }
                }
            }
            next = min(next, schedule.nextSlotDue(after: wall))
        }
        // Only the slots still due are remembered: the set stays as small as the schedule.
        arenaRooms.scheduled.formIntersection(due)
        timers.arenaSchedule = now.adding(next - wall)
    }
}
