import Foundation
import CLinux
import Glibc
import SetNet
import Synchronization

/// The floor a server cannot beat: a bare epoll fan-out of NDJSON lines in rooms, run beside the
/// server by `setgame bench --relay` so the server's delivered lines are reported as a share of
/// what this carries over the same sockets, rooms and line sizes in the same sitting.
///
/// A connection's first line is its room's number in decimal, answered with itself; every line
/// after it goes, byte for byte, to every other member of that room. What it deliberately does not do: no parsing beyond
/// newline framing (a read's complete lines go out as one chunk), no JSON, no journal, no rules,
/// no acknowledgements, no limits on rooms, lines or queues, no per-peer fairness, no closures or
/// objects per connection or per line. Output is batched as the server's is: each member's bytes
/// queued in a batch of readiness leave in one write after it, and EPOLLOUT is watched only while
/// a write would block.
package final class ReferenceRelay: Sendable {
    /// The loopback port it listens on.
    package let port: UInt16
    private let listener: Int32
    private let stopping = Atomic<Bool>(false)
    /// Whether a thread serves it, and whether that thread has closed everything.
    private let state = Mutex<(started: Bool, finished: Bool)>((false, false))

    /// Listens on 127.0.0.1 at a port of the kernel's choosing; `start` serves it.
    package init() throws(SystemCallError) {
        listener = try Sockets.listen(host: "127.0.0.1", port: 0, backlog: 4_096)
        try Sockets.setNonBlocking(listener)
        port = Sockets.localPort(listener)
    }

    /// Serves on a thread of its own, on `cpu` when one is given (the server's core, so the
    /// comparison is one core against one core).
    package func start(cpu: Int32? = nil) {
        let listener = listener
        let first = state.withLock { state in
            defer { state.started = true }
            return !state.started
        }
        guard first else { return }
        let thread = Thread { [self] in
            if let cpu { _ = setgame_pin_to_cpu(0, cpu) }
            var loop = RelayLoop(listener: listener)
            loop.run(until: { self.stopping.load(ordering: .acquiring) })
            loop.closeAll()
            Glibc.close(listener)
            state.withLock { $0.finished = true }
        }
        thread.start()
    }

    /// Asks the relay to stop and waits until it has closed every socket and its listener (a
    /// relay never started closes its listener here).
    package func stop() {
        stopping.store(true, ordering: .releasing)
        let started = state.withLock { state in
            defer { state.started = true }
            return state.started
        }
        guard started else {
            Glibc.close(listener)
            return
        }
        while !state.withLock({ $0.finished }) { usleep(1_000) }
    }
}

/// The relay's state, confined to its thread: every peer by descriptor, every room by number.
private struct RelayLoop {
    private struct Peer {
        /// -1 until its first line names the room.
        var room = -1
        /// An unfinished line carried to the next read.
        var carry: [UInt8] = []
        var out: [UInt8] = []
        var sent = 0
        var open = false
        var watchingWritable = false
        var dirty = false
    }

    private let epollFD: Int32
    private let listener: Int32
    private var peers: [Peer] = []
    private var rooms: [Int: [Int32]] = [:]
    private var dirty: [Int32] = []
    private var buffer = [UInt8](repeating: 0, count: 64 * 1024)

    init(listener: Int32) {
        self.listener = listener
        epollFD = epoll_create1(Int32(EPOLL_CLOEXEC))
        var event = epoll_event(events: EPOLLIN.rawValue, data: epoll_data_t(fd: listener))
        epoll_ctl(epollFD, EPOLL_CTL_ADD, listener, &event)
    }

    mutating func run(until stop: () -> Bool) {
        var events = [epoll_event](repeating: epoll_event(), count: 512)
        while !stop() {
            let count = Int(epoll_wait(epollFD, &events, Int32(events.count), 50))
            for index in 0..<max(0, count) {
                let fd = events[index].data.fd
                let flags = events[index].events
                if fd == listener {
                    acceptAll()
                    continue
                }
                if flags & EPOLLOUT.rawValue != 0 { flush(fd) }
                if flags & (EPOLLIN.rawValue | EPOLLHUP.rawValue | EPOLLERR.rawValue) != 0 { read(fd) }
            }
            for fd in dirty { flush(fd) }
            dirty.removeAll(keepingCapacity: true)
        }
    }

    mutating func closeAll() {
        for fd in peers.indices where peers[fd].open { drop(Int32(fd)) }
        Glibc.close(epollFD)
    }

    private mutating func acceptAll() {
        while let fd = try? Sockets.accept(listener) {
            if fd >= peers.count { peers += Array(repeating: Peer(), count: Int(fd) + 1 - peers.count) }
            peers[Int(fd)] = Peer(open: true)
            var event = epoll_event(events: EPOLLIN.rawValue, data: epoll_data_t(fd: fd))
            epoll_ctl(epollFD, EPOLL_CTL_ADD, fd, &event)
        }
    }

    private mutating func read(_ fd: Int32) {
        let count: Int
        switch buffer.withUnsafeMutableBytes({ bytes in SystemCall.run { Glibc.read(fd, bytes.baseAddress, bytes.count) } }) {
        case .wouldBlock: return
        case .failed, .done(0): return drop(fd)
        case .done(let read): count = read
        }
        guard let last = buffer[..<count].lastIndex(of: 0x0A) else {
            peers[Int(fd)].carry.append(contentsOf: buffer[..<count])
            return
        }
        var start = 0
        if peers[Int(fd)].room < 0 {
            // The first line: the room's number. Everything else is carried as it came.
            guard let newline = buffer[..<count].firstIndex(of: 0x0A) else { return }
            let digits = peers[Int(fd)].carry + buffer[..<newline]
            peers[Int(fd)].carry = []
            let room = Int(String(decoding: digits, as: UTF8.self)) ?? 0
            peers[Int(fd)].room = room
            rooms[room, default: []].append(fd)
            // Answered with itself, so the load knows the member is placed before lines flow.
            peers[Int(fd)].out.append(contentsOf: buffer[...newline])
            markDirty(fd)
            start = newline + 1
            if start > last {
                peers[Int(fd)].carry.append(contentsOf: buffer[start..<count])
                return
            }
        }
        let carry = peers[Int(fd)].carry
        peers[Int(fd)].carry = Array(buffer[(last + 1)..<count])
        for member in rooms[peers[Int(fd)].room] ?? [] where member != fd {
            let index = Int(member)
            peers[index].out.append(contentsOf: carry)
            peers[index].out.append(contentsOf: buffer[start...last])
            markDirty(member)
        }
    }

    private mutating func markDirty(_ fd: Int32) {
        guard !peers[Int(fd)].dirty && !peers[Int(fd)].watchingWritable else { return }
        peers[Int(fd)].dirty = true
        dirty.append(fd)
    }

    private mutating func flush(_ fd: Int32) {
        let index = Int(fd)
        guard peers[index].open else { return }
        peers[index].dirty = false
        var peer = peers[index]
        peers[index].out = []
        defer { peers[index] = peer }
        while peer.sent < peer.out.count {
            let sent = peer.sent
            switch peer.out.withUnsafeBytes({ bytes in SystemCall.run { Glibc.write(fd, bytes.baseAddress! + sent, bytes.count - sent) } }) {
            case .done(let written) where written > 0:
                peer.sent += written
            case .wouldBlock:
                if !peer.watchingWritable { watch(fd, writable: true, &peer) }
                return
            case .done, .failed:
                peer.out = []
                peer.sent = 0
                return
            }
        }
        peer.out.removeAll(keepingCapacity: true)
        peer.sent = 0
        if peer.watchingWritable { watch(fd, writable: false, &peer) }
    }

    private func watch(_ fd: Int32, writable: Bool, _ peer: inout Peer) {
        var event = epoll_event(events: EPOLLIN.rawValue | (writable ? EPOLLOUT.rawValue : 0), data: epoll_data_t(fd: fd))
        epoll_ctl(epollFD, EPOLL_CTL_MOD, fd, &event)
        peer.watchingWritable = writable
    }

    private mutating func drop(_ fd: Int32) {
        let room = peers[Int(fd)].room
        if room >= 0 { rooms[room]?.removeAll { $0 == fd } }
        peers[Int(fd)] = Peer()
        epoll_ctl(epollFD, EPOLL_CTL_DEL, fd, nil)
        Glibc.close(fd)
    }
}
