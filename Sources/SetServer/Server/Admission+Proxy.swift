import SetNet
import SetRules
import SetWire

/// A connection from a proxy the operator named, whose PROXY v2 header has not all arrived.
struct PendingProxyHeader {
    let socket: LineSocket
    /// The proxy's own address.
    let proxy: String
    var received: [UInt8] = []
    let deadline: Instant
}

// The PROXY protocol v2 (`serve --proxy-from`): a connection from a named proxy is admitted only
// once its header says whose connection it is, and is then counted under that address for every
// per-address allowance (connections, connect rate, matches, placements, account records). A
// named proxy that sends no valid header is refused; nobody else's header is ever read (it is
// then the client's first bytes, and no line).
extension Admission {
    /// How long a named proxy may take to send its header: haproxy sends it with the connect.
    static let proxyHeaderTimeoutMs: Int64 = 5_000

    /// Waits for the header of a connection from the named proxy at `proxy`.
    func awaitProxyHeader(_ socket: LineSocket, from proxy: String) {
        let fd = socket.fd
        do {
            try loop.register(fd) { [unowned self] _ in self.readProxyHeader(fd) }
        } catch {
            socket.close()
            return log.quietly("proxy-watch", "cannot watch a connection from proxy \(proxy): \(error)")
        }
        pendingProxies[fd] = PendingProxyHeader(socket: socket, proxy: proxy, deadline: clock.now().adding(Self.proxyHeaderTimeoutMs))
    }

    /// Reads what the header still lacks, never more; admits the connection under the address
    /// it carries once it is whole, or refuses it when it is no header.
    private func readProxyHeader(_ fd: Int32) {
        guard var pending = pendingProxies[fd] else { return }
        while true {
            switch ProxyHeader.parse(pending.received) {
            case .needMore(let count):
                switch pending.socket.readPreamble(upTo: count) {
                case .bytes(let bytes): pending.received += bytes
                case .nothing:
                    pendingProxies[fd] = pending
                    return
                case .endOfStream: return dropProxy(fd, "it closed before its PROXY header ended")
                case .failed(let error): return dropProxy(fd, "reading its PROXY header failed: \(error)")
                }
            case .invalid(let error):
                return dropProxy(fd, error.reason)
            case .header(let header, _):
                loop.unregister(fd)
                pendingProxies[fd] = nil
                let address = switch header {
                case .proxied(let address, _): address
                case .local, .unknown: pending.proxy
                }
                return admitClient(pending.socket, address: address)
            }
        }
    }

    /// Refuses a named proxy's connection that sent no valid header: closed, said in the log.
    private func dropProxy(_ fd: Int32, _ why: String) {
        guard let pending = pendingProxies.removeValue(forKey: fd) else { return }
        loop.unregister(fd)
        pending.socket.close()
        log.quietly("proxy-header", "refused a connection from proxy \(pending.proxy): \(why)")
    }

    /// Refuses the named proxies' connections whose header did not come in time.
    func expireProxyHeaders(at now: Instant) {
        for (fd, pending) in pendingProxies where now >= pending.deadline {
            dropProxy(fd, "no PROXY header within \(Self.proxyHeaderTimeoutMs / 1_000) s")
        }
    }

    /// Closes every connection still waiting for its header, on shutdown.
    func closeProxyWaits() {
        for fd in Array(pendingProxies.keys) { dropProxy(fd, "the server stops") }
    }
}
