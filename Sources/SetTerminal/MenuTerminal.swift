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
        let loop: EventLoop
        do { loop = try EventLoop() } catch {
            LineOutput.write(["setgame: \(error)"], to: STDERR_FILENO)
            return (.quit, menu)
        }
        let keyboard = KeyboardReader(loop: loop, clock: MonotonicTime(), signalFD: session.signalFD)
        let screen = MenuLoop(menu: menu, keyboard: keyboard, size: TerminalSession.size()) { session.write($0) }
        do { try keyboard.start() } catch {
            LineOutput.write(["setgame: \(error)"], to: STDERR_FILENO)
            return (.quit, menu)
        }
        defer { keyboard.stop() }
        screen.draw()
        loop.run(timeout: screen.waitMilliseconds, tick: screen.tick)
        return (screen.choice ?? .quit, screen.menu)
    }
}

/// The door's menu on an `EventLoop`, through the `KeyboardReader` the game client uses too:
/// each key or click goes to the menu, a resize redraws at the new size, a polite signal or a
/// terminal that went away quits, and the loop stops once there is a choice.
final class MenuLoop {
    private(set) var menu: DoorMenu
    /// The player's choice, once made.
    private(set) var choice: DoorMenu.Choice?
    let keyboard: KeyboardReader
    /// The terminal's size as last heard.
    private(set) var size: TerminalSize
    /// The frame on the screen now.
    private(set) var lastFrame: ScreenBuffer?
    /// Puts bytes on the terminal.
    private let write: (String) -> Void

    init(menu: DoorMenu, keyboard: KeyboardReader, size: TerminalSize, write: @escaping (String) -> Void) {
        self.menu = menu
        self.keyboard = keyboard
        self.size = size
        self.write = write
        keyboard.onHappening = { [unowned self] happening in self.handle(happening) }
    }

    /// How long the loop may sleep: until a held ESC's deadline, or until input (-1); not at all
    /// once there is a choice.
    func waitMilliseconds() -> Int32 {
        choice == nil ? keyboard.waitMilliseconds() : 0
    }

    /// After each batch: a lone ESC whose wait is over, then the loop stops at a choice, or the
    /// menu is drawn as it is now.
    func tick() {
        if choice == nil { keyboard.tick() }
        if choice != nil { return keyboard.loop.stop() }
        draw()
    }

    /// Draws what changed since the last frame.
    func draw() {
        // The menu knows the height so a click finds the line drawn under it.
        menu.rows = size.rows
        let frame = menu.render(size: size)
        let diff = FrameRenderer.frameDiff(from: lastFrame, to: frame)
        if !diff.isEmpty { write(diff) }
        lastFrame = frame
    }

    private func handle(_ happening: TerminalHappening) {
        // What follows the choice in the same read is not the menu's: the next screen's, if anything.
        guard choice == nil else { return }
        switch happening {
        case .input(let event): choice = menu.input(event)
        case .resized(let size): self.size = size
        case .signalled, .closed: choice = .quit
        }
    }
}
