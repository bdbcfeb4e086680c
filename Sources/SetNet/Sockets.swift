import CLinux
import Glibc

/// Thin, checked wrappers over the BSD socket calls the project needs.
package enum Sockets {
    /// Ignore SIGPIPE once per process: writing to a closed peer must be an error, not death.
    package static func ignoreBrokenPipes() {
        signal(SIGPIPE, SIG_IGN)
    }

    /// A non-blocking TCP listener on `host:port`; port 0 picks a free one.
    package static func listen(host: String, port: UInt16, backlog: Int32 = 1_024) throws(SystemCallError) -> Int32 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw SystemCallError("socket") }
        var yes: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        var address = try ipv4Address(host: host, port: port)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0 else {
            let error = SystemCallError("bind \(host):\(port)")
            Glibc.close(fd)
            throw error
        }
        guard Glibc.listen(fd, backlog) == 0 else {
            let error = SystemCallError("listen")
            Glibc.close(fd)
            throw error
        }
        try setNonBlocking(fd)
        return fd
    }

    /// The port a socket is bound to.
    package static func localPort(_ fd: Int32) -> UInt16 {
        var address = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        return UInt16(bigEndian: address.sin_port)
    }

    /// Accepts one pending connection, non-blocking with Nagle off and closed on exec, as every
    /// socket here is; nil when none is waiting.
    package static func accept(_ listener: Int32) throws(SystemCallError) -> Int32? {
        let fd: Int32
        switch SystemCall.run({ Int(setgame_accept_cloexec(listener)) }) {
        case .done(let accepted): fd = Int32(accepted)
        case .wouldBlock, .failed(ECONNABORTED): return nil  // one that gave up while waiting: the next may be there
        case .failed(let code): throw SystemCallError("accept", code: code)
        }
        try setNonBlocking(fd)
        setNoDelay(fd)  // a Unix socket has no Nagle: the call fails there, harmlessly
        return fd
    }

    /// A blocking TCP connection to `host:port`, from the local address `source` when one is
    /// given (any 127.x.y.z reaches a loopback server, as a stranger to its per-address limits).
    package static func connect(host: String, port: UInt16, from source: String? = nil) throws(SystemCallError) -> Int32 {
        try openConnection(host: host, port: port, from: source, waiting: true).fd
    }

    /// Starts a TCP connection to `host:port` without waiting for it: the socket is non-blocking,
    /// and `inProgress` says the connect finishes later (the socket then becomes writable).
    package static func startConnecting(host: String, port: UInt16) throws(SystemCallError) -> (fd: Int32, inProgress: Bool) {
        try openConnection(host: host, port: port, from: nil, waiting: false)
    }

    private static func openConnection(host: String, port: UInt16, from source: String?,
                                       waiting: Bool) throws(SystemCallError) -> (fd: Int32, inProgress: Bool) {
        var address = try ipv4Address(host: host, port: port)
        let local = try source.map { name throws(SystemCallError) in try ipv4Address(host: name, port: 0) }
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw SystemCallError("socket") }
        do throws(SystemCallError) {
            if var local {
                let bound = withUnsafePointer(to: &local) {
                    $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
                }
                guard bound == 0 else { throw SystemCallError("bind \(source ?? "")") }
            }
            if !waiting { try setNonBlocking(fd) }
        } catch {
            Glibc.close(fd)
            throw error
        }
        setNoDelay(fd)
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        if result != 0 && (waiting || errno != EINPROGRESS) {
            let error = SystemCallError("connect to \(host):\(port)")
            Glibc.close(fd)
            throw error
        }
        return (fd, result != 0)
    }

    package static func setNonBlocking(_ fd: Int32) throws(SystemCallError) {
        let flags = fcntl(fd, F_GETFL, 0)
        guard flags >= 0, fcntl(fd, F_SETFL, flags | O_NONBLOCK) == 0 else { throw SystemCallError("fcntl") }
    }

    /// Turns Nagle's algorithm off: game events are small and must leave at once.
    package static func setNoDelay(_ fd: Int32) {
        var yes: Int32 = 1
        setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &yes, socklen_t(MemoryLayout<Int32>.size))
    }

    /// Bounds the kernel's send buffer of `fd` to about `bytes` (the kernel doubles what it is
    /// asked for, for its own bookkeeping). Left alone, Linux grows a TCP socket's buffer up to
    /// `tcp_wmem`'s maximum (4 MiB here) for a peer that stops reading: memory of the whole
    /// machine's TCP stack, not the process's.
    package static func setSendBuffer(_ fd: Int32, bytes: Int) {
        var size = Int32(clamping: bytes)
        setsockopt(fd, SOL_SOCKET, SO_SNDBUF, &size, socklen_t(MemoryLayout<Int32>.size))
    }

    /// Lets the kernel's send buffer of `fd` take `extra` bytes more than it holds at most now
    /// (within `net.core.wmem_max` for an unprivileged process): room for a closing socket's
    /// last lines behind a peer that has stopped reading.
    package static func growSendBuffer(_ fd: Int32, by extra: Int) {
        var current: Int32 = 0
        var length = socklen_t(MemoryLayout<Int32>.size)
        guard getsockopt(fd, SOL_SOCKET, SO_SNDBUF, &current, &length) == 0 else { return }
        // getsockopt reports the doubled size the kernel keeps; setsockopt doubles what it gets.
        setSendBuffer(fd, bytes: Int(current) / 2 + extra + 4_096)
    }

    /// Makes blocking reads on `fd` give up after `milliseconds`.
    package static func setReceiveTimeout(_ fd: Int32, milliseconds: Int) {
        var time = timeval(tv_sec: milliseconds / 1_000, tv_usec: (milliseconds % 1_000) * 1_000)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &time, socklen_t(MemoryLayout<timeval>.size))
    }

    /// The IPv4 address of a dotted address or a host name (through the system's resolver).
    package static func ipv4Address(host: String, port: UInt16) throws(SystemCallError) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        if inet_pton(AF_INET, host, &address.sin_addr) == 1 { return address }
        var hints = addrinfo()
        hints.ai_family = AF_INET
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var list: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, String(port), &hints, &list)
        defer { if let list { freeaddrinfo(list) } }
        guard status == 0, let found = list?.pointee.ai_addr else {
            let reason = status == 0 ? "it has no IPv4 address" : String(cString: gai_strerror(status))
            throw SystemCallError("cannot find host '\(host)'", code: 0, reason: reason)
        }
        return found.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { $0.pointee }
    }
}
