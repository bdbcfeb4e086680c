import SetWire
@testable import SetScreen

/// Just enough of a VT100 to replay what `FrameRenderer` writes: CUP, SGR, ED 2 and printable
/// characters. Anything else makes `unsupported` true, so a test notices a stray sequence.
struct TinyTerminal {
    var screen: ScreenBuffer
    var column = 0
    var row = 0
    var style = CellStyle.plain
    var unsupported = false

    init(size: TerminalSize) { screen = ScreenBuffer(size: size) }

    mutating func replay(_ output: String) {
        var scalars = Array(output)[...]
        while let character = scalars.popFirst() {
            guard character == "\u{1B}" else {
                // As a terminal does: a wide character takes two cells, and overwriting half of
                // one blanks the other half.
                screen.put(character, column: column, row: row, style: style)
                column = min(column + max(1, DisplayWidth.of(character)), screen.size.columns)
                continue
            }
            guard scalars.popFirst() == "[" else { unsupported = true; return }
            var parameters = ""
            while let next = scalars.first, next.isNumber || next == ";" || next == "?" {
                parameters.append(next)
                scalars.removeFirst()
            }
            guard let final = scalars.popFirst() else { unsupported = true; return }
            let numbers = parameters.split(separator: ";", omittingEmptySubsequences: false).map { Int($0) }
            switch final {
            case "H":
                row = (numbers.first.flatMap { $0 } ?? 1) - 1
                column = (numbers.count > 1 ? numbers[1] ?? 1 : 1) - 1
            case "m": applySGR(numbers.map { $0 ?? 0 })
            case "J" where parameters == "2":
                screen = ScreenBuffer(size: screen.size, fill: Cell(" ", style: style))
            default: unsupported = true
            }
        }
    }

    private mutating func applySGR(_ codes: [Int]) {
        var codes = codes[...]
        while let code = codes.popFirst() {
            switch code {
            case 0: style = .plain
            case 1: style.bold = true
            case 2: style.dim = true
            case 4: style.underline = true
            case 7: style.reverse = true
            case 30...37: style.foreground = TerminalColor.named[code - 30]
            case 90...97: style.foreground = TerminalColor.named[code - 90 + 8]
            case 39: style.foreground = .default
            case 40...47: style.background = TerminalColor.named[code - 40]
            case 100...107: style.background = TerminalColor.named[code - 100 + 8]
            case 49: style.background = .default
            case 38, 48:
                guard codes.popFirst() == 5, let index = codes.popFirst() else { unsupported = true; return }
                if code == 38 { style.foreground = .indexed(UInt8(index)) } else { style.background = .indexed(UInt8(index)) }
            default: unsupported = true
            }
        }
    }
}
