import SetRules

/// Events as flat JSON objects: `{"type":"event","kind":...,"match":...,"seq":...,"time":...}`
/// plus the fields of their kind.
enum EventCoding {
    static func encode(_ event: WireEvent) -> JSONValue {
        var members: [String: JSONValue] = fields(of: event.body)
        members["kind"] = .string(event.body.kind.rawValue)
        members["type"] = .string(ServerMessageType.event.rawValue)
        members["match"] = .string(event.match)
        members["seq"] = .int(event.seq)
        members["time"] = .int(event.time)
        return .object(members)
    }

    static func fields(of body: EventBody) -> [String: JSONValue] {
        switch body {
        case .rules(let event): return fields(of: event)
        case .gameOver(let result, let seed, let ratings):
            var members: [String: JSONValue] = ["result": .result(result), "seed": .seed(seed)]
            // An unrated game's line is what it was before ratings.
            if !ratings.isEmpty { members["ratings"] = .array(ratings.map(\.json)) }
            return members
        case .gameStarted(let start):
            return ["game": .int(start.game), "table": .cards(start.table), "deck": .int(start.deck),
                    "scores": .array(start.scores.map { .int($0) }), "commitment": .string(start.commitment)]
        case .playerJoined(let seat, let name, let rating, let provisional):
            var members: [String: JSONValue] = ["seat": .seat(seat), "name": .string(name)]
            if let rating {
                members["rating"] = .int(Int64(rating))
                members["provisional"] = .bool(provisional)
            }
            return members
        case .presence(let seat, let present, let forfeitAt):
            return ["seat": .seat(seat), "present": .bool(present), "forfeitAt": forfeitAt.map(JSONValue.int) ?? .null]
        case .resumed(let window, let tableChangedAt):
            return ["window": .window(window), "tableChangedAt": .int(tableChangedAt)]
        case .spectators(let count): return ["count": .int(count)]
        }
    }

    static func fields(of event: MatchEvent) -> [String: JSONValue] {
        switch event {
        case .selectionChanged(let seat, let cards):
            return ["seat": .seat(seat), "cards": .cards(cards)]
        case .windowOpened(let window):
            return ["window": .window(window)]
        case .windowClosed(let window, let end):
            return ["window": .window(window), "end": .string(end.rawValue)]
        case .setTaken(let seat, let cards, let points, let score):
            return ["seat": .seat(seat), "cards": .cards(cards), "points": .int(points), "score": .int(score)]
        case .notASet(let seat, let cards, let penalty, let score):
            return ["seat": .seat(seat), "cards": .cards(cards), "penalty": .int(penalty), "score": .int(score)]
        case .penalised(let seat, let reason, let points, let score):
            return ["seat": .seat(seat), "reason": .string(reason.rawValue), "points": .int(points), "score": .int(score)]
        case .tableChanged(let removed, let added, let table, let deck):
            return ["removed": .cards(removed), "added": .cards(added), "table": .cards(table), "deck": .int(deck)]
        case .hintShown(let seat, let cards, let cost, let score):
            return ["seat": .seat(seat), "cards": .cards(cards), "cost": .int(cost), "score": .int(score)]
        case .matchEnded(let result):
            return ["result": .result(result), "seed": .null]
        case .rematchRequested(let seat):
            return ["seat": .seat(seat)]
        case .rematchAgreed:
            return [:]
        }
    }

    static func decode(_ f: FieldReader) throws(WireError) -> WireEvent {
        let name = try f.required("kind", "an event kind") { k throws(WireError) in try f.string(k) }
        guard let kind = EventKind(rawValue: name) else { throw WireError(.unknownType, "Unknown event kind \"\(name)\".") }
        let body: EventBody
        func seat() throws(WireError) -> Seat { try f.required("seat", "a seat") { k throws(WireError) in try f.seat(k) } }
        switch kind {
        case .selection: body = .rules(.selectionChanged(seat: try seat(), selection: try f.cards("cards")))
        case .windowOpened:
            body = .rules(.windowOpened(try f.required("window", "a window") { k throws(WireError) in try f.window(k) }))
        case .windowClosed:
            body = .rules(.windowClosed(try f.required("window", "a window") { k throws(WireError) in try f.window(k) },
                                        try f.required("end", "how it ended") { k throws(WireError) in try f.choice(k, WindowEnd.self) }))
        case .setTaken:
            body = .rules(.setTaken(seat: try seat(), cards: try f.cards("cards"), points: try f.countRequired("points"), score: try f.scoreRequired("score")))
        case .notASet:
            body = .rules(.notASet(seat: try seat(), cards: try f.cards("cards"), penalty: try f.countRequired("penalty"), score: try f.scoreRequired("score")))
        case .penalty:
            body = .rules(.penalised(seat: try seat(),
                                     reason: try f.required("reason", "a penalty reason") { k throws(WireError) in try f.choice(k, PenaltyReason.self) },
                                     points: try f.countRequired("points"), score: try f.scoreRequired("score")))
        case .table:
            let (table, deck) = try f.tableAndDeck(table: "table", deck: "deck")
            body = .rules(.tableChanged(removed: try f.cards("removed", upTo: WireRange.cardsInPlay),
                                        added: try f.cards("added", upTo: WireRange.cardsInPlay), table: table, deckCount: deck))
        case .hint:
            body = .rules(.hintShown(seat: try seat(), cards: try f.cards("cards"), cost: try f.countRequired("cost"), score: try f.scoreRequired("score")))
        case .gameOver:
            var ratings: [RatingChange] = []
            if let items = f.value("ratings") {
                guard let list = items.arrayValue, list.count <= Seat.allCases.count else { throw f.bad("ratings", "an array of rating changes") }
                for item in list { ratings.append(try RatingChange.decode(item)) }
            }
            body = .gameOver(try f.required("result", "the result") { k throws(WireError) in try f.result(k) }, seed: try f.seedValue("seed"),
                             ratings: ratings)
        case .rematchRequested: body = .rules(.rematchRequested(seat: try seat()))
        case .rematchAgreed: body = .rules(.rematchAgreed)
        case .gameStarted:
            let (table, deck) = try f.tableAndDeck(table: "table", deck: "deck")
            body = .gameStarted(GameStart(game: try f.countRequired("game"), table: table, deck: deck,
                                          scores: try f.scores("scores"),
                                          commitment: try f.required("commitment", "a hash") { k throws(WireError) in try f.string(k) }))
        case .playerJoined:
            body = .playerJoined(seat: try seat(), name: try f.required("name", "a name") { k throws(WireError) in try f.string(k) },
                                 rating: try f.int("rating", in: 0...100_000, "a rating").map { Int($0) },
                                 provisional: f.value("provisional")?.boolValue ?? false)
        case .presence:
            body = .presence(seat: try seat(), present: try f.required("present", "a boolean") { k throws(WireError) in
                guard let value = f.value(k) else { return nil }
                guard let flag = value.boolValue else { throw f.bad(k, "a boolean") }
                return flag
            }, forfeitAt: try f.serverTime("forfeitAt"))
        case .resumed:
            body = .resumed(window: try f.window("window"), tableChangedAt: try f.serverTimeRequired("tableChangedAt"))
        case .spectators: body = .spectators(count: try f.countRequired("count"))
        }
        return WireEvent(match: try f.required("match", "the match name") { k throws(WireError) in try f.string(k) },
                         seq: try f.countRequired("seq"), time: try f.serverTimeRequired("time"), body: body)
    }
}
