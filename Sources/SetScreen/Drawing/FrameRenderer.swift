import SetWire

/// Turns one frame into the next with as few bytes as possible: only changed cells are written,
/// the cursor is moved only when it is not already in place, and the style only when it changes.
package enum FrameRenderer {
    /// The escape-sequence string that changes the screen from `old` to `new`. With no old frame,
    /// or one of another size, the screen is cleared and redrawn whole. Identical frames give "".
    package static func frameDiff(from old: ScreenBuffer?, to new: ScreenBuffer) -> String {
        var output = ""
        let previous: ScreenBuffer
        if let old, old.size == new.size {
            previous = old
        } else {
            // After a reset and clear every cell is a plain blank, so diffing against a blank
            // frame writes exactly the cells that need ink.
            output += EscapeCode.resetStyle.sequence + EscapeCode.clearScreen.sequence
            previous = ScreenBuffer(size: new.size)
        }
        // Unknown at the start of each frame: the shell may have written in between.
        var cursor: (column: Int, row: Int)? = nil
        var style: CellStyle? = nil
        for row in 0..<new.size.rows {
            for column in 0..<new.size.columns {
                let cell = new[column, row]
                // A wide character's tail is drawn with it; the lead is rewritten when any cell of it changed.
                if cell.isWideTail { continue }
                var tails = 0
                while column + tails + 1 < new.size.columns, new[column + tails + 1, row].isWideTail { tails += 1 }
                let tailChanged = (column + 1..<column + 1 + tails).contains { new[$0, row] != previous[$0, row] }
                guard cell != previous[column, row] || tailChanged else { continue }
                if cursor?.column != column || cursor?.row != row {
                    output += EscapeCode.moveCursor(column: column, row: row).sequence
                }
                if style != cell.style {
                    output += cell.style.sgr
                    style = cell.style
                }
                output.append(cell.character.isPrintable ? cell.character : " ")
                // At the last column the terminal holds a pending wrap; an impossible column
                // forces an explicit move next time instead of trusting the wrap.
                cursor = (column + 1 + tails, row)
            }
        }
        return output
    }
}

extension Character {
    /// False for C0/C1 controls, DEL and format characters but an emoji's joiner
    /// (`ServerText.isAllowed`), which must never reach the terminal from a cell.
    var isPrintable: Bool {
        unicodeScalars.allSatisfy(ServerText.isAllowed)
    }

    /// The cells the character takes, with a fast path for the one-scalar characters most text is.
    var cellWidth: Int {
        if unicodeScalars.count == 1, let scalar = unicodeScalars.first, scalar.value >= 0x20, scalar.value < 0x300,
           !(0x7F...0x9F).contains(scalar.value) {
            return 1
        }
        return DisplayWidth.of(self)
    }
}
