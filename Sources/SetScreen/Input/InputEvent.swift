/// A key the user pressed, as far as a terminal can tell them apart.
package enum Key: Hashable, Sendable {
    case character(Character)
    case enter, escape, backspace, tab
    case up, down, left, right
    case home, end, pageUp, pageDown, insert, delete
    /// Ctrl with a letter (lowercase) or with one of @ [ \ ] ^ _.
    case ctrl(Character)
}

/// A mouse button as reported by SGR mouse mode; the wheel arrives as presses of its own buttons.
package enum MouseButton: Hashable, Sendable {
    case left, middle, right, wheelUp, wheelDown
}

/// Whether a mouse report is a press or a release.
package enum MouseAction: Hashable, Sendable {
    case press, release
}

/// One mouse report, at a 0-based cell position.
package struct MouseEvent: Hashable, Sendable {
    var button: MouseButton
    var kind: MouseAction
    var column: Int
    var row: Int

    init(button: MouseButton, kind: MouseAction, column: Int, row: Int) {
        self.button = button
        self.kind = kind
        self.column = column
        self.row = row
    }
}

/// Something the user did at the terminal.
package enum InputEvent: Hashable, Sendable {
    case key(Key)
    case mouse(MouseEvent)
}
