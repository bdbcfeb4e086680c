import CLinux
import Glibc
import SetWire

// Unix stream sockets: the trusted channel between `setgame door` and the server on one host.
// Whoever connects is known by the uid the kernel recorded (SO_PEERCRED), not by what it says.
extension Sockets {
    /// A non-blocking Unix stream listener at `path`, which anyone may connect to (mode 0666): the
    /// server decides by the peer's uid. A socket left at `path` by an earlier run is replaced;
    /// any other file there is an error, never removed.
    package static func listen(unixPath path: String, backlog: Int32 = 1_024) throws(SystemCallError) -> Int32 {
        var address = try unixAddress(path)
        var status = stat()
        if lstat(path, &status) == 0 {
            guard status.st_mode & S_IFMT == S_IFSOCK else {
                throw SystemCallError("bind \(path)", code: EEXIST, reason: "a file that is not a socket is in the way")
            }
            unlink(path)
        }
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw SystemCallError("socket") }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard bound == 0, chmod(path, 0o666) == 0, Glibc.listen(fd, backlog) == 0 else {
            let error = SystemCallError("listen on \(path)")
            Glibc.close(fd)
            throw error
        }
        do { try setNonBlocking(fd) } catch {
            Glibc.close(fd)
            throw error
        }
        return fd
    }

    /// A blocking connection to the Unix socket at `path`.
    package static func connect(unixPath path: String) throws(SystemCallError) -> Int32 {
        var address = try unixAddress(path)
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw SystemCallError("socket") }
        let result = SystemCall.run {
            withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Int(Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))) }
            }
        }
        if case .done = result { return fd }
        let code: Int32 = if case .failed(let failure) = result { failure } else { EAGAIN }
        Glibc.close(fd)
        throw SystemCallError("connect to \(path)", code: code)
    }

    /// The uid of the process that connected a Unix socket, as the kernel saw it.
    package static func peerUID(_ fd: Int32) throws(SystemCallError) -> UInt32 {
        var uid: UInt32 = 0
        if case .failed(let code) = SystemCall.run({ Int(setgame_peer_uid(fd, &uid)) }) {
            throw SystemCallError("SO_PEERCRED", code: code)
        }
        return uid
    }

    /// The uid of a user name, from the system's user database; nil for no such user.
    package static func uid(ofUser name: String) -> UInt32? {
        if let number = UInt32(name) { return number }
        return getpwnam(name).map { $0.pointee.pw_uid }
    }

    private static func unixAddress(_ path: String) throws(SystemCallError) -> sockaddr_un {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        let capacity = MemoryLayout.size(ofValue: address.sun_path)
        guard !bytes.isEmpty, bytes.count < capacity, !bytes.contains(0) else {
            throw SystemCallError("socket path", code: ENAMETOOLONG, reason: "'\(path)' must be 1-\(capacity - 1) bytes")
        }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (index, byte) in bytes.enumerated() { raw[index] = byte }
        }
        return address
    }
}

extension LineSocket {
    /// Connects along `route` with the greeting queued first; what is sent next follows it.
    package static func connect(_ route: UnixRoute, maxLineBytes: Int = 1 << 20,
                               maxQueuedBytes: Int = 4 << 20) throws(SystemCallError) -> LineSocket {
        let socket = try connect(unixPath: route.path, maxLineBytes: maxLineBytes, maxQueuedBytes: maxQueuedBytes)
        socket.send(route.greeting)
        return socket
    }

    /// Connects to `place`: the door's socket with its greeting first, or a TCP address (waiting
    /// for the connection or not, as `connect(host:port:)` says). Every client connects through
    /// this, so one that follows a `redirect` to another node goes where the session says.
    package static func connect(to place: ServerPlace, waitForConnection: Bool = true, maxLineBytes: Int = 1 << 20,
                               maxQueuedBytes: Int = 4 << 20) throws(SystemCallError) -> LineSocket {
        switch place {
        case .door(let route): try connect(route, maxLineBytes: maxLineBytes, maxQueuedBytes: maxQueuedBytes)
        case .tcp(let host, let port):
            try connect(host: host, port: port, waitForConnection: waitForConnection, maxLineBytes: maxLineBytes,
                        maxQueuedBytes: maxQueuedBytes)
        }
    }
}
