import Glibc
import SetNet
import SetScreen

/// Runs the door's menu (`DoorMenu`) on the terminal until the player picks: raw keys and
/// clicks in, only the changed cells out, the terminal restored on the way out.
package enum MenuTerminal {
    /// The player's choice and the menu as they left it (variant, colour letters); `.quit` when
    /// there is no terminal or the session ends.
    package static func choose(_ menu: DoorMenu, logPath: String) -> (DoorMenu.Choice, DoorMenu) {
        let session: TerminalSession
        do { session = try TerminalSession(logPath: logPath, showsLogPath: false) } catch {
            LineOutput.write(["setgame: \(error)"], to: STDERR_FILENO)
            return (.quit, menu)
        }
        defer { session.end() }
        var menu = menu
        var decoder = InputDecoder()
        var last: ScreenBuffer?
        while true {
            let size = TerminalSession.size()
            menu.rows = size.rows
            let frame = menu.render(size: size)
            let diff = FrameRenderer.frameDiff(from: last, to: frame)
            if !diff.isEmpty { session.write(diff) }
            last = frame
            var watched = [pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0),
                           pollfd(fd: session.signalFD, events: Int16(POLLIN), revents: 0)]
            // A lone ESC is the Escape key once nothing has followed it for a moment.
            let ready = poll(&watched, 2, decoder.hasPendingEscape ? 30 : -1)
            if ready == 0 {
                for event in decoder.flushPendingEscape() { if let choice = menu.input(event) { return (choice, menu) } }
                continue
            }
            if watched[1].revents != 0 {
                for signal in session.pendingSignals() where signal != SIGWINCH { return (.quit, menu) }
            }
            guard watched[0].revents != 0 else { continue }
            var bytes = [UInt8](repeating: 0, count: 1_024)
            let count = bytes.withUnsafeMutableBytes { read(STDIN_FILENO, $0.baseAddress, $0.count) }
            if count <= 0 {
                if count < 0 && errno == EINTR { continue }
                return (.quit, menu)  // the terminal went away
            }
            for event in decoder.feed(Array(bytes[0..<count])) {
                if let choice = menu.input(event) { return (choice, menu) }
            }
        }
    }
}
