/// Turns the bytes a terminal sends in raw mode into key and mouse events. Bytes may arrive in any
/// chunking: an incomplete sequence is kept until the rest arrives, so the result never depends on
/// where reads happened to split the stream.
package struct InputDecoder: Sendable {
    private var pending: [UInt8] = []

    /// A runaway CSI longer than this is dropped rather than buffered forever.
    private static let maximumSequenceLength = 64
    private static let esc: UInt8 = 0x1B

    package init() {}

    /// True when bytes are held back waiting for the rest of a sequence.
    var hasPendingInput: Bool { !pending.isEmpty }

    /// True when the held bytes start with ESC: the app should call `flushPendingEscape()` after
    /// a short silence (~30 ms), because a lone Escape key looks like the start of a sequence.
    package var hasPendingEscape: Bool { pending.first == Self.esc }

    /// Decodes as many complete events as the bytes so far allow.
    package mutating func feed(_ bytes: [UInt8]) -> [InputEvent] {
        pending += bytes
        return drain(flushing: false)
    }

    /// Declares the input silent: a held ESC becomes the Escape key and whatever followed it is
    /// read as plain keys.
    package mutating func flushPendingEscape() -> [InputEvent] {
        drain(flushing: true)
    }

    private enum Step {
        case events([InputEvent], consumed: Int)
        case needMore
    }

    private mutating func drain(flushing: Bool) -> [InputEvent] {
        var events: [InputEvent] = []
        var start = 0
        while start < pending.count {
            let rest = pending[start...]
            switch Self.decode(rest) {
            case .events(let decoded, let consumed):
                events += decoded
                start += consumed
            case .needMore:
                if flushing && rest.first == Self.esc {
                    events.append(.key(.escape))
                    start += 1
                } else {
                    pending.removeFirst(start)
                    return events
                }
            }
        }
        pending.removeAll()
        return events
    }

    private static func decode(_ bytes: ArraySlice<UInt8>) -> Step {
        let first = bytes[bytes.startIndex]
        switch first {
        case esc: return decodeEscape(bytes)
        case 0x0D, 0x0A: return .events([.key(.enter)], consumed: 1)
        case 0x09: return .events([.key(.tab)], consumed: 1)
        case 0x7F, 0x08: return .events([.key(.backspace)], consumed: 1)
        case 0x00: return .events([.key(.ctrl("@"))], consumed: 1)
        case 0x01...0x1A: return .events([.key(.ctrl(Character(Unicode.Scalar(first + 0x60))))], consumed: 1)
        case 0x1C...0x1F: return .events([.key(.ctrl(Character(Unicode.Scalar(first + 0x40))))], consumed: 1)
        case 0x20...0x7E: return .events([.key(.character(Character(Unicode.Scalar(first))))], consumed: 1)
        default: return decodeUTF8(bytes)
        }
    }

    private static func decodeUTF8(_ bytes: ArraySlice<UInt8>) -> Step {
        let lead = bytes[bytes.startIndex]
        let length: Int
        switch lead {
        case 0xC2...0xDF: length = 2
        case 0xE0...0xEF: length = 3
        case 0xF0...0xF4: length = 4
        default: return .events([], consumed: 1)  // a stray continuation or invalid lead byte
        }
        // Stop at the first byte that cannot continue the sequence, so one bad byte costs one key.
        for offset in 1..<length {
            guard bytes.count > offset else { return .needMore }
            let byte = bytes[bytes.startIndex + offset]
            guard byte & 0xC0 == 0x80 else { return .events([], consumed: offset) }
        }
        let encoded = bytes.prefix(length)
        guard let text = String(validating: encoded, as: UTF8.self), let character = text.first else {
            return .events([], consumed: length)
        }
        return .events([.key(.character(character))], consumed: length)
    }

    private static func decodeEscape(_ bytes: ArraySlice<UInt8>) -> Step {
        guard bytes.count > 1 else { return .needMore }
        let second = bytes[bytes.startIndex + 1]
        switch second {
        case UInt8(ascii: "["): return decodeCSI(bytes)
        case UInt8(ascii: "O"):
            guard bytes.count > 2 else { return .needMore }
            let key = ss3Keys[bytes[bytes.startIndex + 2]]
            return .events(key.map { [.key($0)] } ?? [], consumed: 3)
        default:
            // ESC then something that starts no sequence (Alt+key, or Escape typed fast before
            // another key): the Escape key, and the next byte is decoded on its own.
            return .events([.key(.escape)], consumed: 1)
        }
    }

    private static let ss3Keys: [UInt8: Key] = [
        UInt8(ascii: "A"): .up, UInt8(ascii: "B"): .down, UInt8(ascii: "C"): .right,
        UInt8(ascii: "D"): .left, UInt8(ascii: "H"): .home, UInt8(ascii: "F"): .end,
    ]

    private static func decodeCSI(_ bytes: ArraySlice<UInt8>) -> Step {
        // ECMA-48: parameter bytes 0x30–0x3F, intermediates 0x20–0x2F, one final byte 0x40–0x7E.
        var index = bytes.startIndex + 2
        while index < bytes.endIndex, (0x20...0x3F).contains(bytes[index]) {
            index += 1
            // Decided on the first bytes only, so the outcome cannot depend on the chunking.
            if index - bytes.startIndex >= maximumSequenceLength {
                return .events([], consumed: maximumSequenceLength)
            }
        }
        guard index < bytes.endIndex else { return .needMore }
        let final = bytes[index]
        let consumed = index - bytes.startIndex + 1
        guard (0x40...0x7E).contains(final) else {
            // Malformed: drop the introducer and parameters, let the odd byte be read on its own.
            return .events([], consumed: consumed - 1)
        }
        let parameters = Array(bytes[(bytes.startIndex + 2)..<index])
        let events = csiEvent(parameters: parameters, final: final).map { [$0] } ?? []
        return .events(events, consumed: consumed)
    }

    private static func csiEvent(parameters: [UInt8], final: UInt8) -> InputEvent? {
        if parameters.first == UInt8(ascii: "<") {
            return mouseEvent(parameters: parameters.dropFirst(), final: final)
        }
        switch final {
        case UInt8(ascii: "A"): return .key(.up)
        case UInt8(ascii: "B"): return .key(.down)
        case UInt8(ascii: "C"): return .key(.right)
        case UInt8(ascii: "D"): return .key(.left)
        case UInt8(ascii: "H"): return .key(.home)
        case UInt8(ascii: "F"): return .key(.end)
        case UInt8(ascii: "~"):
            // Modifiers ("3;5~") are ignored: Ctrl+Delete is still Delete here.
            let numbers = numbers(in: parameters[...])
            guard let first = numbers.first, let code = first else { return nil }
            return tildeKeys[code].map { .key($0) }
        default: return nil
        }
    }

    private static let tildeKeys: [Int: Key] = [
        1: .home, 2: .insert, 3: .delete, 4: .end, 5: .pageUp, 6: .pageDown, 7: .home, 8: .end,
    ]

    private static func mouseEvent(parameters: ArraySlice<UInt8>, final: UInt8) -> InputEvent? {
        guard final == UInt8(ascii: "M") || final == UInt8(ascii: "m") else { return nil }
        let numbers = numbers(in: parameters)
        guard numbers.count == 3, let code = numbers[0], let x = numbers[1], let y = numbers[2],
              x >= 1, y >= 1 else { return nil }
        // Bit 32 marks motion, which we never asked for; bits 4, 8, 16 are Shift, Meta, Ctrl.
        guard code & 32 == 0 else { return nil }
        let button: MouseButton
        switch code & ~(4 | 8 | 16) {
        case 0: button = .left
        case 1: button = .middle
        case 2: button = .right
        case 64: button = .wheelUp
        case 65: button = .wheelDown
        default: return nil
        }
        let kind: MouseAction = final == UInt8(ascii: "M") ? .press : .release
        return .mouse(MouseEvent(button: button, kind: kind, column: x - 1, row: y - 1))
    }

    /// The ';'-separated decimal parameters; nil for an empty or non-numeric one. Capped so a
    /// hostile stream of digits cannot overflow.
    private static func numbers(in parameters: ArraySlice<UInt8>) -> [Int?] {
        parameters.split(separator: UInt8(ascii: ";"), omittingEmptySubsequences: false).map { field in
            guard !field.isEmpty, field.count <= 6,
                  field.allSatisfy({ (0x30...0x39).contains($0) }) else { return nil }
            return field.reduce(0) { $0 * 10 + Int($1 - 0x30) }
        }
    }
}
