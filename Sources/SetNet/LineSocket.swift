import CLinux
import Glibc
import SetWire

/// Where sockets put what one read brings before it is cut into lines. One per thread is enough:
/// a server with thousands of sockets shares one instead of holding 64 KiB for each.
package final class ReadBuffer {
    var bytes: [UInt8]

    /// A buffer of `size` bytes: the most one read takes.
    package init(size: Int = 64 * 1024) { bytes = [UInt8](repeating: 0, count: size) }
}

/// One socket that speaks lines: the only code that reads from or writes to a peer, for the
/// server, the bots, the bench and the terminal. Reads come back as byte lines (one read per
/// call, so level-triggered readiness keeps one busy peer from starving the others); sends are
/// queued and leave together at the next `flush()`, one write per batch. Used by one thread.
package final class LineSocket {
    package let fd: Int32
    /// The most that may wait to be sent: a peer that does not read is given up on past it.
    package let maxQueuedBytes: Int
    package private(set) var isOpen = true
    /// True until a connect started without waiting has finished (see `finishConnecting()`).
    package internal(set) var isConnecting = false
    /// Why the socket was closed, once it is.
    package private(set) var closeReason: String?
    /// Called once, when the socket closes, with the reason given to `close`.
    package var onClose: (String) -> Void = { _ in }
    /// Called for each complete line while the socket serves itself (see `serve(on:)`).
    package var onLine: ([UInt8]) -> Void = { _ in }
    /// Called once a connect started without waiting has finished, while the socket serves itself.
    package var onConnected: () -> Void = {}
    /// With arrival stamps on: when the kernel received the bytes of the line being handled, in
    /// CLOCK_REALTIME nanoseconds (see `LineSocket.realtimeNanoseconds`).
    package private(set) var arrivalNanoseconds: UInt64 = 0
    /// Every byte read so far.
    package internal(set) var bytesRead = 0
    /// Where "host:port" was asked for, for a socket that connected itself.
    let target: String?
    var reader: LineReader
    var outbound = OutboundBuffer()
    let readBuffer: ReadBuffer
    /// The loop watching the socket, if one is.
    var loop: EventLoop?
    /// Whether the loop is asked to say when the socket has room: a write found it full.
    package internal(set) var watchingWritable = false
    /// Whether the loop reads the peer (off while it is over its rate limit: `watchReadable`).
    package private(set) var watchingReadable = true
    private var stampsArrivals = false
    private var kernelStampsArrivals = false
    /// While closing after a fatal line: writing is shut down once the queue is empty.
    var writeShutDown = false

    /// Takes over `fd`, a socket already connected or accepted; it is closed with the object.
    /// Blocking or not, as the caller made it: non-blocking for a loop, blocking for a test's
    /// client that waits on each read.
    package init(adopting fd: Int32, maxLineBytes: Int = 1 << 20, maxQueuedBytes: Int = 4 << 20,
                readBuffer: ReadBuffer = ReadBuffer(), target: String? = nil) {
        self.fd = fd
        self.maxQueuedBytes = maxQueuedBytes
        self.readBuffer = readBuffer
        self.target = target
        reader = LineReader(maxLineBytes: maxLineBytes)
    }

    /// Connects to `host:port` (a name or an IPv4 address) and returns a non-blocking socket.
    /// Waiting, the connect is done on return (on loopback at once); not waiting, it may still be
    /// `isConnecting`: whoever drives the socket sees it finish through `handle(_:)`. `source`
    /// binds the local address first (waiting only).
    package static func connect(host: String, port: UInt16, from source: String? = nil, waitForConnection: Bool = true,
                               maxLineBytes: Int = 1 << 20, maxQueuedBytes: Int = 4 << 20,
                               readBuffer: ReadBuffer = ReadBuffer()) throws(SystemCallError) -> LineSocket {
        let (fd, inProgress) = waitForConnection ? (try Sockets.connect(host: host, port: port, from: source), false)
                                                 : try Sockets.startConnecting(host: host, port: port)
        do { try Sockets.setNonBlocking(fd) } catch {
            Glibc.close(fd)
            throw error
        }
        let socket = LineSocket(adopting: fd, maxLineBytes: maxLineBytes, maxQueuedBytes: maxQueuedBytes, readBuffer: readBuffer,
                                target: "\(host):\(port)")
        socket.isConnecting = inProgress
        return socket
    }

    /// Connects to the Unix stream socket at `path` and returns a non-blocking socket.
    package static func connect(unixPath path: String, maxLineBytes: Int = 1 << 20, maxQueuedBytes: Int = 4 << 20,
                               readBuffer: ReadBuffer = ReadBuffer()) throws(SystemCallError) -> LineSocket {
        let fd = try Sockets.connect(unixPath: path)
        do { try Sockets.setNonBlocking(fd) } catch {
            Glibc.close(fd)
            throw error
        }
        return LineSocket(adopting: fd, maxLineBytes: maxLineBytes, maxQueuedBytes: maxQueuedBytes, readBuffer: readBuffer,
                          target: path)
    }

    deinit { if isOpen { Glibc.close(fd) } }

    // MARK: Reading

    /// What one read gave.
    package enum ReadResult {
        /// Nothing to read now (a spurious wake-up, an interrupted read, a receive timeout).
        case nothing
        /// Bytes arrived: the lines they completed, maybe none, in order.
        case lines([LineReader.Line])
        /// The peer closed its end.
        case endOfStream
        case failed(SystemCallError)
    }

    /// Reads once, whatever is there up to the read buffer's size, and frames it into lines.
    package func read() -> ReadResult {
        let count: Int
        switch receive() {
        case .done(0): return .endOfStream
        case .done(let read): count = read
        case .wouldBlock: return .nothing
        case .failed(let code): return .failed(SystemCallError("read", code: code))
        }
        return .lines(readBuffer.bytes.withUnsafeBytes { reader.feed(UnsafeRawBufferPointer(rebasing: $0[0..<count])) })
    }

    /// Whether an unfinished line is held, to time out peers that drip a line slowly.
    package var isMidLine: Bool { reader.isMidLine }

    /// One read(2) into the read buffer (made again if a signal interrupted it).
    func receive() -> SystemCallResult {
        var stamp: Int64 = 0
        let result = readBuffer.bytes.withUnsafeMutableBytes { buffer in
            SystemCall.run {
                kernelStampsArrivals ? setgame_read_stamped(fd, buffer.baseAddress, UInt(buffer.count), &stamp)
                                     : Glibc.read(fd, buffer.baseAddress, buffer.count)
            }
        }
        guard case .done(let count) = result, count > 0 else { return result }
        bytesRead += count
        if stampsArrivals { arrivalNanoseconds = stamp > 0 ? UInt64(stamp) : Self.realtimeNanoseconds() }
        return result
    }

    /// Asks the kernel to stamp each arrival, so a measurement does not include the time this
    /// process took to get round to reading it; without the kernel's stamps, reads are stamped.
    package func stampArrivals() {
        stampsArrivals = true
        kernelStampsArrivals = setgame_enable_arrival_stamps(fd) == 0
    }

    /// The clock arrival stamps use.
    package static func realtimeNanoseconds() -> UInt64 { UInt64(setgame_realtime_ns()) }

    // MARK: Writing

    /// Bytes queued and not yet taken by the socket.
    package var pendingBytes: Int { outbound.count }

    /// Whether the socket waits to be writable: it is connecting, or output waits.
    package var wantsWrite: Bool { isConnecting || !outbound.isEmpty }

    /// Whether `count` more bytes may be queued without passing `maxQueuedBytes`.
    package func fits(_ count: Int) -> Bool { outbound.count + count <= maxQueuedBytes }

    /// Queues bytes; `flush()` sends them. Past `maxQueuedBytes` nothing is queued and the socket
    /// is closed: the peer has stopped reading. (The server checks `fits` first, to tell such a
    /// client why; a client's socket says it of the server.)
    @discardableResult
    package func send(_ bytes: [UInt8]) -> Bool { queue(bytes.count) { $0.append(bytes) } }

    /// Queues part of a buffer kept elsewhere (a match's spectator feed), as `send` does.
    @discardableResult
    package func send(_ bytes: ArraySlice<UInt8>) -> Bool { queue(bytes.count) { $0.append(bytes) } }

    private func queue(_ count: Int, _ append: (inout OutboundBuffer) -> Void) -> Bool {
        guard isOpen else { return false }
        guard fits(count) else {
            close("the server is not reading what we send (\(outbound.count / 1024) KiB waiting); disconnected")
            return false
        }
        append(&outbound)
        return true
    }

    /// Drops every queued line not yet begun and queues `last` in their place, whatever the cap:
    /// the one line a peer too slow for the rest must still get (see `OutboundBuffer`).
    package func replaceUnstartedLines(with last: [UInt8]) {
        outbound.dropUnstartedLines()
        outbound.append(last)
    }

    /// Writes as much as the socket takes now; on a loop, writability is watched while output
    /// waits and only then.
    @discardableResult
    package func flush() -> OutboundBuffer.FlushResult {
        guard isOpen else { return .failed(EBADF) }
        if isConnecting {
            watchWritable(true)
            return .blocked
        }
        let result = outbound.flush(to: fd)
        switch result {
        case .drained: watchWritable(false)
        case .blocked: watchWritable(true)
        case .failed: break
        }
        return result
    }

    // MARK: The loop

    /// Has `loop` call `handler` whenever the socket is ready; writability is watched only while
    /// the socket wants to write. `priority`: in the loop's priority lane (`EventLoop.register`).
    package func watch(on loop: EventLoop, priority: Bool = false, handler: @escaping (Readiness) -> Void) throws(SystemCallError) {
        try loop.register(fd, writable: wantsWrite, priority: priority, handler: handler)
        self.loop = loop
        watchingWritable = wantsWrite
    }

    /// Moves the socket into its loop's priority lane or out of it.
    package func prioritize(_ priority: Bool) {
        loop?.prioritize(fd, priority, readable: watchingReadable, writable: watchingWritable)
    }

    /// Stops watching writability until the next `flush()` is blocked: the server's spectators
    /// wait for their turn to write instead of being written the moment there is room.
    package func stopWatchingWritable() { watchWritable(false) }

    func watchWritable(_ on: Bool) {
        guard let loop, watchingWritable != on else { return }
        loop.watch(fd, readable: watchingReadable, writable: on)
        watchingWritable = on
    }

    /// Stops or starts reading the peer: while off, what it sends waits in the kernel, and TCP
    /// slows it down (a client over its rate limit); a hang-up is still heard.
    package func watchReadable(_ on: Bool) {
        guard let loop, watchingReadable != on else { return }
        loop.watch(fd, readable: on, writable: watchingWritable)
        watchingReadable = on
    }

    /// Stops the loop watching, if one does.
    func unwatch() {
        loop?.unregister(fd)
        loop = nil
        watchingWritable = false
    }

    // MARK: Closing

    /// Closes now (what is queued is dropped); `onClose` hears `reason`. Later calls do nothing.
    package func close(_ reason: String = "closed") {
        guard isOpen else { return }
        isOpen = false
        closeReason = reason
        unwatch()
        Glibc.close(fd)
        onClose(reason)
    }
}
