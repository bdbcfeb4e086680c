import Glibc
import SetNet
import Testing
@testable import SetScreen
@testable import SetTerminal

/// The door's menu on an `EventLoop`, read through the client's `KeyboardReader`: pipes stand in
/// for the keyboard and the signal pipe, and a manual clock for time.
@Suite struct MenuLoopTests {
    /// Something the test does to the terminal, one per pass of the loop.
    enum Step {
        case keys(String)
        /// The window becomes this size and SIGWINCH arrives.
        case resize(TerminalSize)
        case signal(Int32)
        /// The terminal goes away.
        case hangUp
        /// A pass of the loop with nothing new.
        case pause
    }

    /// A menu on a loop of its own, with the terminal made of pipes.
    final class Rig {
        final class Window {
            var size = TerminalSize(columns: 80, rows: 24)
            /// How many frames were drawn.
            var frames = 0
        }

        let loop: EventLoop
        let clock = ManualTime()
        let window: Window
        let screen: MenuLoop
        var keyboard: [Int32]
        var signals: [Int32]
        var frames: Int { window.frames }
        /// The clock when the choice was made.
        var choiceAt: Int64?

        init(_ menu: DoorMenu = DoorMenu(name: "key-2Jrayl", levels: ["easy", "normal", "hard"])) throws {
            var keyboard: [Int32] = [-1, -1], signals: [Int32] = [-1, -1]
            #expect(pipe(&keyboard) == 0 && pipe(&signals) == 0)
            self.keyboard = keyboard
            self.signals = signals
            loop = try EventLoop()
            let window = Window()
            self.window = window
            let reader = KeyboardReader(loop: loop, clock: clock, keyboardFD: keyboard[0], signalFD: signals[0],
                                        size: { window.size })
            screen = MenuLoop(menu: menu, keyboard: reader, size: window.size) { _ in window.frames += 1 }
            try reader.start()
            screen.draw()
        }

        deinit {
            screen.keyboard.stop()
            for fd in keyboard + signals where fd >= 0 { Glibc.close(fd) }
        }

        func perform(_ step: Step) {
            switch step {
            case .keys(let text): _ = Array(text.utf8).withUnsafeBytes { write(keyboard[1], $0.baseAddress, $0.count) }
            case .resize(let size):
                window.size = size
                perform(.signal(SIGWINCH))
            case .signal(let number):
                var byte = UInt8(number)
                _ = write(signals[1], &byte, 1)
            case .hangUp:
                Glibc.close(keyboard[1])
                keyboard[1] = -1
            case .pause: break
            }
        }

        /// Runs the loop, doing one step before each pass; before each wait the clock moves
        /// toward the keyboard's deadline by at most `stepMs`, and the loop never sleeps. Stops at
        /// the choice, or a few passes after the last step.
        func run(_ steps: [Step], stepMs: Int64 = 10) -> DoorMenu.Choice? {
            var remaining = steps[...]
            var idlePasses = 0
            loop.clearStop()
            if let first = remaining.popFirst() { perform(first) }
            loop.run(timeout: {
                let wait = screen.waitMilliseconds()
                if wait > 0 { clock.advance(by: min(Int64(wait), stepMs)) }
                return 0
            }, tick: {
                screen.tick()
                if screen.choice != nil {
                    if choiceAt == nil { choiceAt = clock.now().milliseconds }
                    return loop.stop()
                }
                if let next = remaining.popFirst() { return perform(next) }
                idlePasses += 1
                if idlePasses > 20 { loop.stop() }
            })
            return screen.choice
        }
    }

    @Test func aKeyPicksAndWhatFollowsInTheSameReadIsNotTheMenus() throws {
        let rig = try Rig()
        #expect(rig.run([.keys("3q")]) == .solo)
        #expect(rig.frames == 1, "the first frame, and none after the choice")
    }

    /// A lone ESC is a key once its wait is over (an arrow's first byte waits for the rest of it):
    /// in the name `7` opened, it gives the name up, not before the wait and not long after. (In
    /// the menu itself Esc does nothing: it has nothing to go back to.)
    @Test func aLoneEscapeIsAKeyOnceItsWaitIsOver() throws {
        let rig = try Rig()
        #expect(rig.run([.keys("7")]) == nil)
        #expect(rig.screen.menu.draft == "")
        let before = rig.clock.now().milliseconds
        #expect(rig.run([.keys("\u{1B}")], stepMs: 10) == nil)
        #expect(rig.screen.menu.draft == nil, "the name given up")
        let decidedAfter = rig.clock.now().milliseconds - before
        #expect(decidedAfter >= KeyStream.escapeWait && decidedAfter <= KeyStream.escapeWait + 10, "not before the wait, and not long after")
        #expect(rig.run([.keys("\u{1B}")], stepMs: 10) == nil, "Esc in the menu does not end the session")
        #expect(rig.run([.keys("q")]) == .quit)
    }

    /// An arrow whose bytes come in three reads, the loop passing a deadline in between that
    /// the first byte's wait would have had.
    @Test func anArrowSplitAcrossReadsMovesTheSelection() throws {
        let rig = try Rig()
        #expect(rig.run([.keys("\u{1B}"), .keys("["), .pause, .keys("B"), .keys("\r")], stepMs: 20) == .bot(level: "easy"))
        #expect(rig.clock.now().milliseconds > KeyStream.escapeWait)
    }

    @Test func aResizeRedrawsAtTheNewSize() throws {
        let rig = try Rig()
        let bigger = TerminalSize(columns: 100, rows: 30)
        #expect(rig.run([.resize(bigger)]) == nil)
        #expect(rig.screen.lastFrame?.size == bigger)
        #expect(rig.screen.menu.rows == 30, "a click finds the line drawn under it")
        #expect(rig.run([.keys("q")]) == .quit)
    }

    @Test func aPoliteSignalOrAGoneTerminalQuits() throws {
        #expect(try Rig().run([.signal(SIGTERM)]) == .quit)
        #expect(try Rig().run([.hangUp]) == .quit)
    }
}
