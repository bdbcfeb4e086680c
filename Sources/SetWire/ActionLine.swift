import SetRules

/// The lines clients send most, a seat's actions such as `{"card":5,"id":12,"type":"select"}`,
/// read without building a `JSONValue` and its dictionary of members for each.
///
/// Only a line in the plainest form is taken: no whitespace; keys among `card`, `id`, `seat`,
/// `seen` and `type`, in sorted order (so none twice), as `ClientMessageEncoder` writes them;
/// each number a non-negative integer of at most 9 digits without a leading zero; a type naming
/// an action, with the fields that action reads and no other; every value one the general
/// decoder accepts. Any other line, every error among them, is left to the general decoder, so
/// what a line decodes to is what parsing it gives (`ActionLineTests` hold the two together).
enum ActionLine {
    /// The request on `bytes` (the newline excluded), or nil when the general decoder must read it.
    static func decode(_ bytes: [UInt8]) -> ClientRequest? {
        bytes.withUnsafeBufferPointer { decode($0) }
    }

    /// The fields in the order their keys sort.
    private enum Key: Int {
        case card, id, seat, seen, type
    }

    private static func decode(_ line: UnsafeBufferPointer<UInt8>) -> ClientRequest? {
        let end = line.count
        guard end > 2, line[0] == UInt8(ascii: "{"), line[end - 1] == UInt8(ascii: "}") else { return nil }
        var card: Int?, id: Int?, seat: Int?, seen: Int?, type: RequestType?
        var last = -1
        var position = 1
        while true {
            guard let (key, afterKey) = key(in: line, at: position), key.rawValue > last else { return nil }
            last = key.rawValue
            position = afterKey
            if key == .type {
                guard let (name, afterName) = word(in: line, at: position) else { return nil }
                type = name
                position = afterName
            } else {
                guard let (number, afterNumber) = number(in: line, at: position) else { return nil }
                switch key {
                case .card: card = number
                case .id: id = number
                case .seat: seat = number
                case .seen: seen = number
                case .type: return nil
                }
                position = afterNumber
            }
            guard position < end else { return nil }
            if line[position] == UInt8(ascii: "}") { break }
            guard line[position] == UInt8(ascii: ",") else { return nil }
            position += 1
        }
        guard position == end - 1, let type else { return nil }
        var seatTaken: Seat?
        if let seat {
            guard let known = Seat(rawValue: seat) else { return nil }
            seatTaken = known
        }
        let action: Action
        switch type {
        case .select:
            guard seen == nil, let card, let chosen = Card(id: card) else { return nil }
            action = .select(chosen)
        case .claim:
            guard card == nil else { return nil }
            action = .claim
        case .deal, .hint, .pass, .resign, .rematch:
            guard card == nil, seen == nil else { return nil }
            action = switch type {
            case .deal: .deal
            case .hint: .hint
            case .pass: .pass
            case .resign: .resign
            default: .rematch
            }
        default: return nil
        }
        return ClientRequest(id: id.map { .int(Int64($0)) }, .act(action, seat: seatTaken, seen: seen))
    }

    /// A quoted key of lower-case letters and its colon: which key, and where its value begins.
    private static func key(in line: UnsafeBufferPointer<UInt8>, at start: Int) -> (Key, Int)? {
        guard let (letters, after) = quotedLetters(in: line, at: start), after < line.count,
              line[after] == UInt8(ascii: ":") else { return nil }
        let key: Key? = switch letters.count {
        case 2 where letters.elementsEqual("id".utf8): .id
        case 4 where letters.elementsEqual("card".utf8): .card
        case 4 where letters.elementsEqual("seat".utf8): .seat
        case 4 where letters.elementsEqual("seen".utf8): .seen
        case 4 where letters.elementsEqual("type".utf8): .type
        default: nil
        }
        guard let key else { return nil }
        return (key, after + 1)
    }

    /// A quoted action's request type, and where it ends. Compared byte by byte: a `String` made
    /// of the letters and `RequestType(rawValue:)` cost a string switch's lookup on every line.
    private static func word(in line: UnsafeBufferPointer<UInt8>, at start: Int) -> (RequestType, Int)? {
        guard let (letters, after) = quotedLetters(in: line, at: start) else { return nil }
        for type in actionTypes where letters.elementsEqual(type.rawValue.utf8) { return (type, after) }
        return nil
    }

    /// The request types that carry an action, the ones this reader takes.
    private static let actionTypes: [RequestType] = [.select, .claim, .deal, .hint, .pass, .resign, .rematch]

    /// The lower-case letters between two quotes (at least one, at most 16), and where they end.
    private static func quotedLetters(in line: UnsafeBufferPointer<UInt8>, at start: Int) -> (Slice<UnsafeBufferPointer<UInt8>>, Int)? {
        guard start < line.count, line[start] == UInt8(ascii: "\"") else { return nil }
        var position = start + 1
        while position < line.count, line[position] >= UInt8(ascii: "a"), line[position] <= UInt8(ascii: "z") { position += 1 }
        guard position < line.count, line[position] == UInt8(ascii: "\""), position > start + 1, position - start <= 17 else { return nil }
        return (line[(start + 1)..<position], position + 1)
    }

    /// A non-negative integer of 1 to 9 digits, without a leading zero, and where it ends.
    private static func number(in line: UnsafeBufferPointer<UInt8>, at start: Int) -> (Int, Int)? {
        var position = start, value = 0
        while position < line.count, line[position] >= UInt8(ascii: "0"), line[position] <= UInt8(ascii: "9") {
            value = value * 10 + Int(line[position] - UInt8(ascii: "0"))
            position += 1
        }
        let digits = position - start
        guard digits >= 1, digits <= 9, digits == 1 || line[start] != UInt8(ascii: "0") else { return nil }
        return (value, position)
    }
}
