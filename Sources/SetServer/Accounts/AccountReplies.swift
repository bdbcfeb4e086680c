import SetWire

/// What the answers to account questions say when there is nothing to answer, in the words
/// Protocol.md shows.
enum AccountReplies {
    static func noSuchPlayer(_ name: String) -> WireError {
        WireError(.noSuchPlayer, "No player here is named \"\(ServerText.printable(name, limit: 40))\".")
    }

    static var badCursor: WireError {
        WireError(.badField, "\"after\" must be the \"next\" of an earlier page.", details: ["field": "after"])
    }
}
