import Glibc

/// A non-blocking listener, TCP or Unix stream, that hands out `LineSocket`s, holding one
/// descriptor in reserve so that a process which has run out can still accept a newcomer and
/// tell it so.
package final class Listener {
    package let fd: Int32
    /// The port it listens on (the one picked, when asked for port 0).
    package let port: UInt16
    /// The Unix socket's path, for a Unix listener: the file is removed when it closes.
    package let unixPath: String?
    private let maxLineBytes: Int
    private let maxQueuedBytes: Int
    /// The kernel send buffer each accepted socket gets (`Sockets.setSendBuffer`); nil: the
    /// kernel's own, which grows for a peer that stops reading.
    package var sendBufferBytes: Int?
    /// Shared by every socket accepted: they are all read on the listener's thread.
    private let readBuffer = ReadBuffer()
    private var reserve: Int32
    private var isOpen = true

    /// Listens on `host:port`; accepted sockets hold lines up to `maxLineBytes` and queue up to
    /// `maxQueuedBytes`.
    package init(host: String, port: UInt16, maxLineBytes: Int, maxQueuedBytes: Int) throws(SystemCallError) {
        fd = try Sockets.listen(host: host, port: port)
        self.port = Sockets.localPort(fd)
        unixPath = nil
        self.maxLineBytes = maxLineBytes
        self.maxQueuedBytes = maxQueuedBytes
        reserve = Self.openReserve()
    }

    /// Listens on the Unix stream socket at `unixPath` (see `Sockets.listen(unixPath:)`).
    package init(unixPath: String, maxLineBytes: Int, maxQueuedBytes: Int) throws(SystemCallError) {
        fd = try Sockets.listen(unixPath: unixPath)
        port = 0
        self.unixPath = unixPath
        self.maxLineBytes = maxLineBytes
        self.maxQueuedBytes = maxQueuedBytes
        reserve = Self.openReserve()
    }

    deinit { close() }

    /// Accepts one waiting connection, non-blocking with Nagle off; nil when none waits.
    package func accept() throws(SystemCallError) -> LineSocket? {
        guard let accepted = try Sockets.accept(fd) else { return nil }
        if let sendBufferBytes { Sockets.setSendBuffer(accepted, bytes: sendBufferBytes) }
        return LineSocket(adopting: accepted, maxLineBytes: maxLineBytes, maxQueuedBytes: maxQueuedBytes, readBuffer: readBuffer)
    }

    /// Frees the reserve descriptor while `body` runs (it may accept into the freed slot), then
    /// takes it back. Does nothing without a reserve: false then.
    @discardableResult
    package func usingReserve(_ body: () -> Void) -> Bool {
        guard reserve >= 0 else { return false }
        Glibc.close(reserve)
        reserve = -1
        body()
        reserve = Self.openReserve()
        return true
    }

    /// Stops listening and gives the reserve back; later calls do nothing.
    package func close() {
        guard isOpen else { return }
        isOpen = false
        Glibc.close(fd)
        if let unixPath { unlink(unixPath) }
        if reserve >= 0 { Glibc.close(reserve) }
        reserve = -1
    }

    private static func openReserve() -> Int32 { open("/dev/null", O_RDONLY | O_CLOEXEC) }
}
