import Glibc
import SetNet
import SetScreen

// The state signal handlers need. A handler may run at any moment on this thread, so it can only
// read plain globals prepared in advance; these are written before the handlers are installed.
nonisolated(unsafe) private var savedAttributes = termios()
nonisolated(unsafe) private var sessionActive: Int32 = 0
nonisolated(unsafe) private var restoreBytes: UnsafeMutablePointer<UInt8>?
nonisolated(unsafe) private var restoreCount = 0
nonisolated(unsafe) private var crashNoteBytes: UnsafeMutablePointer<UInt8>?
nonisolated(unsafe) private var crashNoteCount = 0
nonisolated(unsafe) private var savedStderr: Int32 = -1
nonisolated(unsafe) private var signalPipeWrite: Int32 = -1

/// Puts the terminal back exactly as it was: safe from a signal handler, and idempotent.
private func restoreTerminal() {
    guard sessionActive == 1 else { return }
    sessionActive = 0
    if let bytes = restoreBytes { _ = write(STDOUT_FILENO, bytes, restoreCount) }
    _ = tcsetattr(STDIN_FILENO, TCSAFLUSH, &savedAttributes)
    if savedStderr >= 0 { _ = dup2(savedStderr, STDERR_FILENO) }
}

/// Raw mode, the alternate screen, a hidden cursor and mouse reports, with the promise that the
/// terminal is restored on every way out: a normal end, `exit`, Ctrl-C, SIGTERM, SIGHUP, and a
/// crash (the handler restores, then lets the signal do what it would have done).
package final class TerminalSession {
    /// Where stderr goes while the screen is ours.
    let logPath: String
    /// Read end of the pipe that signal handlers write the signal number into (`KeyboardReader`
    /// reads it).
    let signalFD: Int32

    /// Signals that end the program politely: the loop quits, restores, then re-raises. Every
    /// signal whose default ends the process and that may be caught is here (SIGPIPE is ignored
    /// for sockets; SIGKILL and SIGSTOP cannot be caught): whatever stops the door, the player's
    /// terminal gets its screen, cursor and mouse back (issue 45).
    static let politeSignals: [Int32] = [SIGTERM, SIGHUP, SIGINT, SIGQUIT, SIGUSR1, SIGUSR2, SIGALRM, SIGVTALRM, SIGPROF,
                                         SIGXCPU, SIGXFSZ, SIGPWR, SIGSTKFLT, SIGIO]
    /// Signals of a crash: restore from the handler itself, then die as before.
    static let fatalSignals: [Int32] = [SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT, SIGTRAP]

    /// Whether stdin and stdout are a terminal, which the full-screen client needs.
    package static var hasTerminal: Bool { isatty(STDIN_FILENO) == 1 && isatty(STDOUT_FILENO) == 1 }

    /// What to say when there is no terminal.
    package static let needsTerminal = "this command needs a terminal (stdin and stdout must be a tty)"

    /// Takes over the terminal on stdin/stdout; throws a sentence when they are not a terminal.
    /// Without `showsLogPath` (the door, whose log is on the server's host) a crash note names no file.
    init(logPath: String, showsLogPath: Bool = true) throws(TerminalError) {
        guard Self.hasTerminal else { throw TerminalError(Self.needsTerminal) }
        self.logPath = logPath
        var pipeFDs: [Int32] = [-1, -1]
        guard pipe(&pipeFDs) == 0 else { throw TerminalError("pipe failed") }
        for fd in pipeFDs {
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL, 0) | O_NONBLOCK)
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        }
        signalFD = pipeFDs[0]
        signalPipeWrite = pipeFDs[1]
        guard tcgetattr(STDIN_FILENO, &savedAttributes) == 0 else { throw TerminalError("cannot read the terminal's settings") }
        Self.prepare(bytes: Array((EscapeCode.endSession + "\r").utf8), into: &restoreBytes, count: &restoreCount)
        let crashNote = showsLogPath ? "setgame: crashed; details are in \(logPath)\n" : "setgame: crashed; the details are in the host's log\n"
        Self.prepare(bytes: Array(crashNote.utf8), into: &crashNoteBytes, count: &crashNoteCount)
        redirectStderr()
        var raw = savedAttributes
        cfmakeraw(&raw)
        withUnsafeMutableBytes(of: &raw.c_cc) { cc in
            cc[Int(VMIN)] = 1
            cc[Int(VTIME)] = 0
        }
        guard tcsetattr(STDIN_FILENO, TCSAFLUSH, &raw) == 0 else { throw TerminalError("cannot put the terminal in raw mode") }
        sessionActive = 1
        atexit { restoreTerminal() }
        installHandlers()
        write(EscapeCode.startSession)
    }

    /// Restores the terminal now; later calls do nothing.
    func end() {
        restoreTerminal()
        for signal in Self.politeSignals + Self.fatalSignals + [SIGWINCH] { Glibc.signal(signal, SIG_DFL) }
    }

    /// Writes all of `text` to the terminal.
    func write(_ text: String) {
        LineOutput.write(bytes: Array(text.utf8), to: STDOUT_FILENO)
    }

    /// The terminal's size now, as it is drawn (`TerminalSize.drawn`).
    package static func size() -> TerminalSize {
        var size = winsize()
        guard ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0 else { return TerminalSize.drawn(columns: 0, rows: 0) }
        return TerminalSize.drawn(columns: Int(size.ws_col), rows: Int(size.ws_row))
    }

    private func redirectStderr() {
        let fd = open(logPath, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o600)
        guard fd >= 0 else { return }
        savedStderr = dup(STDERR_FILENO)
        dup2(fd, STDERR_FILENO)
        Glibc.close(fd)
    }

    private func installHandlers() {
        for signal in Self.politeSignals + [SIGWINCH] {
            var action = sigaction()
            action.__sigaction_handler.sa_handler = { number in
                var byte = UInt8(truncatingIfNeeded: number)
                _ = Glibc.write(signalPipeWrite, &byte, 1)
            }
            action.sa_flags = SA_RESTART
            sigaction(signal, &action, nil)
        }
        for signal in Self.fatalSignals {
            var action = sigaction()
            action.__sigaction_handler.sa_handler = { number in
                restoreTerminal()
                if let note = crashNoteBytes { _ = Glibc.write(STDERR_FILENO, note, crashNoteCount) }
                Glibc.signal(number, SIG_DFL)
                raise(number)
            }
            sigaction(signal, &action, nil)
        }
    }

    private static func prepare(bytes: [UInt8], into pointer: inout UnsafeMutablePointer<UInt8>?, count: inout Int) {
        let buffer = UnsafeMutablePointer<UInt8>.allocate(capacity: bytes.count)
        buffer.initialize(from: bytes, count: bytes.count)
        pointer = buffer
        count = bytes.count
    }
}

/// Why the terminal could not be taken over.
struct TerminalError: Error, CustomStringConvertible, Sendable {
    var description: String
    init(_ description: String) { self.description = description }
}
