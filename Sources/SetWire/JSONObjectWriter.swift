import SetRules

/// Writes one JSON object straight into bytes, for the lines the server sends most. Callers give
/// keys in sorted order, so the output is byte for byte what `JSONWriter` makes of the same
/// object, without building, hashing or sorting a dictionary; tests hold the two to that.
/// Package-wide, so the server's journal writes its frequent records the same way.
package struct JSONObjectWriter {
    private(set) var bytes: [UInt8] = []
    private var empty = true
    #if DEBUG
    /// The key written last: debug builds check that each key sorts after it, as promised above.
    private var lastKey: [UInt8] = []
    #endif

    package init(capacity: Int = 192) {
        bytes.reserveCapacity(capacity)
        bytes.append(UInt8(ascii: "{"))
    }

    private mutating func key(_ name: StaticString) {
        #if DEBUG
        let current = name.withUTF8Buffer { Array($0) }
        assert(empty || lastKey.lexicographicallyPrecedes(current),
               "JSONObjectWriter: key \"\(name)\" written after \"\(String(decoding: lastKey, as: UTF8.self))\"")
        lastKey = current
        #endif
        if !empty { bytes.append(UInt8(ascii: ",")) }
        empty = false
        bytes.append(UInt8(ascii: "\""))
        name.withUTF8Buffer { bytes.append(contentsOf: $0) }
        bytes.append(UInt8(ascii: "\""))
        bytes.append(UInt8(ascii: ":"))
    }

    package mutating func int(_ name: StaticString, _ value: Int64) {
        key(name)
        Self.appendDecimal(value, to: &bytes)
    }

    package mutating func int(_ name: StaticString, _ value: Int) { int(name, Int64(value)) }

    package mutating func string(_ name: StaticString, _ value: String) {
        key(name)
        JSONWriter.appendString(value, to: &bytes)
    }

    /// A string known to need no escaping, such as an enum's raw value.
    package mutating func plain(_ name: StaticString, _ value: StaticString) {
        key(name)
        bytes.append(UInt8(ascii: "\""))
        value.withUTF8Buffer { bytes.append(contentsOf: $0) }
        bytes.append(UInt8(ascii: "\""))
    }

    /// An enum's raw value: known to need no escaping.
    package mutating func plain<Name: RawRepresentable<String>>(_ name: StaticString, _ value: Name) {
        key(name)
        bytes.append(UInt8(ascii: "\""))
        bytes.append(contentsOf: value.rawValue.utf8)
        bytes.append(UInt8(ascii: "\""))
    }

    package mutating func bool(_ name: StaticString, _ value: Bool) {
        key(name)
        let literal: StaticString = value ? "true" : "false"
        literal.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    package mutating func null(_ name: StaticString) {
        key(name)
        ("null" as StaticString).withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    package mutating func seat(_ name: StaticString, _ seat: Seat?) {
        guard let seat else { return null(name) }
        int(name, seat.rawValue)
    }

    package mutating func ints(_ name: StaticString, _ values: [Int]) {
        key(name)
        bytes.append(UInt8(ascii: "["))
        for (index, value) in values.enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            Self.appendDecimal(Int64(value), to: &bytes)
        }
        bytes.append(UInt8(ascii: "]"))
    }

    /// The cards' ids, as `ints` writes them, without an array of the ids made first.
    package mutating func cards(_ name: StaticString, _ cards: [Card]) {
        key(name)
        bytes.append(UInt8(ascii: "["))
        for (index, card) in cards.enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            Self.appendDecimal(Int64(card.id), to: &bytes)
        }
        bytes.append(UInt8(ascii: "]"))
    }

    /// A value already written as JSON (`JSONWriter.bytes`), for a field too rare to write directly.
    package mutating func raw(_ name: StaticString, _ json: [UInt8]) {
        key(name)
        bytes.append(contentsOf: json)
    }

    /// A nested object written by `body`.
    package mutating func object(_ name: StaticString, _ body: (inout JSONObjectWriter) -> Void) {
        key(name)
        var inner = JSONObjectWriter(continuing: &bytes)
        body(&inner)
        inner.end(into: &bytes)
    }

    /// An array of objects, each written by `body` from one of `items`.
    package mutating func objects<Items: Sequence>(_ name: StaticString, _ items: Items, _ body: (inout JSONObjectWriter, Items.Element) -> Void) {
        key(name)
        bytes.append(UInt8(ascii: "["))
        for (index, item) in items.enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            var inner = JSONObjectWriter(continuing: &bytes)
            body(&inner, item)
            inner.end(into: &bytes)
        }
        bytes.append(UInt8(ascii: "]"))
    }

    /// A nested object written on at the end of its parent's bytes, which it holds (moved, not
    /// copied) until `end(into:)` hands them back closed.
    private init(continuing parent: inout [UInt8]) {
        swap(&bytes, &parent)
        bytes.append(UInt8(ascii: "{"))
    }

    /// Closes a nested object and gives its parent's bytes, now with it, back.
    private mutating func end(into parent: inout [UInt8]) {
        bytes.append(UInt8(ascii: "}"))
        swap(&bytes, &parent)
    }

    /// The object, closed, as one line. Consuming: the writer's own bytes are closed in place,
    /// not copied into a new array.
    package consuming func line() -> [UInt8] {
        // Swapped out, not assigned: `var line = bytes` left the writer a second reference until
        // its end, and the first append below copied the whole line into a new array.
        var line: [UInt8] = []
        swap(&line, &bytes)
        line.append(UInt8(ascii: "}"))
        line.append(0x0A)
        return line
    }

    package static func appendDecimal(_ value: Int64, to bytes: inout [UInt8]) {
        JSONWriter.appendInteger(value, to: &bytes)
    }
}
