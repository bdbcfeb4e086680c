import Glibc

// Closing after a fatal error so that the error arrives: `close` on a socket whose peer's
// requests are unread makes the kernel send a reset, which can destroy lines not yet read. So
// the socket writes what is left, shuts down writing (the peer reads the line, then end of
// stream), reads and drops whatever the peer still sends, and closes at its end. How long that
// may take is its owner's to bound: it calls `close()` when the time is up.
extension LineSocket {
    /// Starts closing so that what is queued still arrives; `loop` drives the rest and the socket
    /// closes itself (calling `onClose`) once the peer has read it all and hung up. False when it
    /// is closed already: the peer was gone, or the loop would not take it.
    package func closeAfterDelivering(on loop: EventLoop) -> Bool {
        guard isOpen else { return false }
        unwatch()
        // Room in the kernel for what is left (a line's rest and the error after it), so a peer
        // that stopped reading still finds them once it reads again, however late.
        if !outbound.isEmpty { Sockets.growSendBuffer(fd, by: outbound.count) }
        if case .failed = outbound.flush(to: fd) {
            close("write failed while closing")
            return false
        }
        if outbound.isEmpty { shutDownWriting() }
        do {
            try loop.register(fd, writable: !writeShutDown) { [unowned self] readiness in self.lingerReady(readiness) }
        } catch {
            close("the loop cannot watch a closing socket: \(error)")
            return false
        }
        self.loop = loop
        watchingWritable = !writeShutDown
        return true
    }

    private func lingerReady(_ readiness: Readiness) {
        if readiness.contains(.writable) && !writeShutDown {
            switch outbound.flush(to: fd) {
            case .drained:
                shutDownWriting()
                watchWritable(false)
            case .blocked: break
            case .failed: return close("write failed while closing")
            }
        }
        if readiness.contains(.readable) || readiness.contains(.closed) {
            switch receive() {
            case .done(0), .failed: close("delivered")
            case .done, .wouldBlock: break
            }
        }
    }

    private func shutDownWriting() {
        shutdown(fd, Int32(SHUT_WR))
        writeShutDown = true
    }
}
