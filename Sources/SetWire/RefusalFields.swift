import SetRules

extension WireError {
    /// The rules' refusal this error carries, typed: read from the fields Protocol.md names for it
    /// (`holder` and `leadMs` for `claim_taken`, `holder` for `not_your_window`, `card` for
    /// `card_not_on_table`). Nil for an error that is not the rules', or whose facts are missing or
    /// out of range (a client then says what it can without them). `no_such_seat` and
    /// `not_in_solo` carry no facts on the wire, so they never come back typed.
    package var refusal: RuleRefusal? { RefusalFields.refusal(code: code, details: details) }
}

/// The one place where a refusal's facts become wire fields and back.
enum RefusalFields {
    /// The fields that travel beside the code.
    static func details(of refusal: RuleRefusal) -> [String: JSONValue] {
        switch refusal {
        case .claimTaken(let holder, let lead): ["holder": .int(Int64(holder.rawValue)), "leadMs": .int(lead)]
        case .notYourWindow(let holder): ["holder": .int(Int64(holder.rawValue))]
        case .cardNotOnTable(let card): ["card": .int(Int64(card.id))]
        case .matchOver, .matchNotOver, .noSuchSeat, .claimFirst, .alreadyYourWindow, .finishYourClaim, .deckEmpty,
             .noWindowToPass, .notInSolo, .hintsDisabled, .noSetOnTable, .rematchAlreadyAsked, .tableNotSeen: [:]
        }
    }

    /// The refusal an error's code and fields describe.
    static func refusal(code: ErrorCode, details: [String: JSONValue]) -> RuleRefusal? {
        func seat(_ key: String) -> Seat? { details[key]?.intValue.flatMap { Int(exactly: $0) }.flatMap(Seat.init(rawValue:)) }
        switch code {
        case .matchOver: return .matchOver
        case .matchNotOver: return .matchNotOver
        case .claimFirst: return .claimFirst
        case .alreadyYourWindow: return .alreadyYourWindow
        case .finishYourClaim: return .finishYourClaim
        case .deckEmpty: return .deckEmpty
        case .noWindowToPass: return .noWindowToPass
        case .hintsDisabled: return .hintsDisabled
        case .noSetOnTable: return .noSetOnTable
        case .rematchAlreadyAsked: return .rematchAlreadyAsked
        case .tableNotSeen: return .tableNotSeen
        case .claimTaken:
            guard let holder = seat("holder"), let lead = details["leadMs"]?.intValue, lead >= 0 else { return nil }
            return .claimTaken(holder: holder, leadMs: lead)
        case .notYourWindow: return seat("holder").map { .notYourWindow(holder: $0) }
        case .cardNotOnTable:
            return details["card"]?.intValue.flatMap { Int(exactly: $0) }.flatMap(Card.init(id:)).map { .cardNotOnTable($0) }
        case .noSuchSeat, .notInSolo: return nil
        case .badJSON, .invalidUTF8, .lineTooLong, .notAnObject, .unknownType, .missingField, .badField,
             .unsupportedVersion, .notJoined, .alreadyJoined, .spectatorsCannotAct, .notYourSeat, .badToken, .seatTaken,
             .seatInUse, .matchFull, .noSuchMatch, .modeMismatch, .variantMismatch, .waitingForOpponent, .replaced, .notADoor, .nameTaken, .noSuchPlayer,
             .rateLimited, .slowConsumer, .serverFull, .addressLimit, .accountLimit, .idleTimeout, .serverShuttingDown, .journalFailed,
             .chatOff, .chatRoomClosed, .chatLimited, .chatRepeated, .chatSilenced,
             .notInLobby, .challengeSelf, .playerNotHere, .challengeOpen, .challengeLimited, .noSuchChallenge,
             .nodeAway, .badTicket, .noSuchArena, .arenaExists, .arenaOver, .notInArena:
            return nil
        }
    }
}
