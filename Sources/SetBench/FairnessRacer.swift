import Foundation
import Glibc
import SetClient
import SetNet
import SetRules
import SetWire
import Synchronization

/// Who took each claim window of a fairness run with a claim sent for that table (each racer counts its own).
final class RaceTally: Sendable {
    private let wins = Mutex<[Int]>([0, 0])
    /// Windows opened before this (monotonic milliseconds) are not counted.
    private let countingFrom: Int64

    init(countingFrom: Int64) { self.countingFrom = countingFrom }

    func won(by seat: Seat) {
        guard MonotonicTime.rawMilliseconds() >= countingFrom else { return }
        wins.withLock { $0[seat.rawValue] += 1 }
    }

    var counts: [Int] { wins.withLock { $0 } }
    var total: Int { counts.reduce(0, +) }
}

/// One player of a fairness run: it drives the shared `ClientSession` over the shared line
/// connection (`LineSocket`), waiting on it with `poll` for its think times, and
/// whenever a new table is on show with no window open it claims after its think time (the same
/// spread for both racers), then takes a set if the window is its own. It answers the server's
/// echo pings as any client does, through the session.
final class FairnessRacer {
    private let socket: LineSocket
    private var session: ClientSession
    private var random: SplitMix64
    private let thinkMs: ClosedRange<Int64>
    private let tally: RaceTally
    private let clock = MonotonicTime()
    private var raceTable: [Card] = []
    private var claimAt: Int64?
    /// The table the last claim was sent for.
    private var claimedTable: [Card] = []
    private var rematchAsked = -1
    /// How late it answers the server's echo pings: 0 for an honest racer, more for one feigning
    /// a distance (`--feign-lag-ms`).
    private let pongDelayMs: Int64
    /// Pongs held back until they are due, oldest first.
    private var latePongs: [(due: Int64, message: ClientMessage)] = []

    init(port: UInt16, name: String, match: String, thinkMs: ClosedRange<Int64>, seed: UInt64, tally: RaceTally,
         pongDelayMs: Int64 = 0) throws(SystemCallError) {
        socket = try LineSocket.connect(host: "127.0.0.1", port: port)
        Sockets.setNoDelay(socket.fd)
        var options = ClientOptions(name: name, match: match, mode: .duel, pings: .keepAlive)
        options.joinsAtOnce = true
        session = ClientSession(options)
        random = SplitMix64(seed: seed)
        self.thinkMs = thinkMs
        self.tally = tally
        self.pongDelayMs = pongDelayMs
    }

    private var now: Int64 { clock.now().milliseconds }

    /// Plays until `done` says so or the connection ends.
    func run(until done: @Sendable () -> Bool) {
        perform(session.connected(at: now))
        while !done() {
            let wait = [claimAt, latePongs.first?.due].compactMap { $0 }.map { max(0, $0 - now) }.min() ?? 50
            var ready = pollfd(fd: socket.fd, events: Int16(POLLIN), revents: 0)
            if poll(&ready, 1, Int32(min(wait, 50))) > 0 {
                switch socket.read() {
                case .nothing: break
                case .endOfStream, .failed: return
                case .lines(let lines):
                    for line in lines {
                        guard case .complete(let bytes) = line, case .success(let message) = ServerMessageCoding.decode(bytes) else { continue }
                        perform(session.receive(message, at: now))
                    }
                    react()
                }
            }
            guard socket.isOpen else { return }
            perform(session.tick(at: now))
            while let late = latePongs.first, now >= late.due {
                latePongs.removeFirst()
                send(late.message)
            }
            if let due = claimAt, now >= due {
                claimAt = nil
                claimedTable = raceTable
                debug("claims")
                send(session.request(.claim))
            }
        }
    }

    private func perform(_ effects: [SessionEffect]) {
        for effect in effects {
            switch effect {
            case .send(let message):
                if pongDelayMs > 0, case .pong = message {
                    latePongs.append((due: now + pongDelayMs, message: message))
                } else {
                    send(message)
                }
            case .eventApplied(let event, _):
                if case .rules(.windowOpened(let window)) = event.body, window.kind == .claim {
                    claimAt = nil  // too late for this table
                    debug("window for \(window.holder)")
                    // A claim sent for an earlier table that lands on this one won no race for it.
                    if window.holder == session.seat, claimedTable == session.view?.table { tally.won(by: window.holder) }
                    if window.holder == session.seat, let view = session.view {
                        // A claim that landed on a table without a set (sent for an earlier one) gives up.
                        guard let trio = SetLogic.firstSet(in: view.table) else { send(.act(.pass, seat: nil)); continue }
                        trio.forEach { send(.act(.select($0), seat: nil)) }
                    }
                } else if case .rules(.windowOpened(let window)) = event.body, window.holder == session.seat {
                    send(.act(.pass, seat: nil))  // a deal's grace or a second chance: not a race
                } else if case .rules(.windowClosed(_, let end)) = event.body, end != .decided {
                    raceTable = []  // the same table again, free: race for it (or deal) anew
                }
            case .refused(let error) where error.fatal || ProcessInfo.processInfo.environment["SETGAME_FAIRNESS_DEBUG"] != nil:
                Bench.warn("bench: \(session.options.name): \(error.code.rawValue): \(error.message)")
            case .gaveUp(let end): Bench.warn("bench: \(session.options.name) gave up: \(end.reason)")
            default: break
            }
        }
    }

    /// A new table on show with nobody holding it starts a race; one without a set is dealt.
    private func react() {
        guard let view = session.view, let seat = session.seat else { return }
        if view.phase == .over, rematchAsked != view.game {
            rematchAsked = view.game
            send(.act(.rematch, seat: nil))
            return
        }
        guard view.phase == .playing, view.window == nil, view.table != raceTable else { return }
        raceTable = view.table
        debug("new table \(view.table.prefix(2).map(\.id))")
        if SetLogic.anySet(in: view.table) {
            claimAt = now + thinkMs.lowerBound + Int64(random.next() % UInt64(thinkMs.count))
        } else if seat == .first {
            send(.act(.deal, seat: nil))
        }
    }

    private func debug(_ text: String) {
        guard ProcessInfo.processInfo.environment["SETGAME_FAIRNESS_DEBUG"] != nil else { return }
        Bench.warn("\(MonotonicTime.rawMilliseconds() % 100_000) \(session.options.name): \(text)")
    }

    private func send(_ message: ClientMessage) {
        socket.write(ClientMessageEncoder.line(ClientRequest(message)))
    }
}
