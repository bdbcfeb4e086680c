import SetWire
import Testing

/// Issue 44: the arena requests are checked as they are decoded, as Protocol.md says.
@Suite struct ArenaWireTests {
    static func decode(_ line: String) -> Result<ClientRequest, WireError> { ClientMessageDecoder.decode(Array(line.utf8)) }

    static func code(_ line: String) -> ErrorCode? {
        if case .failure(let error) = decode(line) { return error.code }
        return nil
    }

    @Test func aCreationTakesItsDefaultsAndRoundTrips() throws {
        let request = try Self.decode(#"{"type":"arena_create","arena":"friday","minutes":10}"#).get()
        #expect(request.message == .arena(.create(ArenaCreation(arena: "friday", minutes: 10, variant: .classic, rated: true, startsInS: 0))))
        let again = ClientMessageEncoder.line(request)
        #expect(try Self.decode(String(decoding: again.dropLast(), as: UTF8.self)).get() == request)
    }

    @Test func namesMinutesAndStartsAreBounded() {
        #expect(Self.code(#"{"type":"arena_create","arena":"a-name-twenty-one-xyz","minutes":10}"#) == .badField)
        #expect(Self.code(#"{"type":"arena_create","arena":"twenty-chars-exactly","minutes":10}"#) == nil)
        #expect(Self.code(#"{"type":"arena_create","arena":"fri.day","minutes":10}"#) == .badField)
        #expect(Self.code(#"{"type":"arena_create","arena":"friday","minutes":0}"#) == .badField)
        #expect(Self.code(#"{"type":"arena_create","arena":"friday","minutes":181}"#) == .badField)
        #expect(Self.code(#"{"type":"arena_create","arena":"friday"}"#) == .missingField)
        #expect(Self.code(#"{"type":"arena_create","arena":"friday","minutes":5,"startsInS":3601}"#) == .badField)
        #expect(Self.code(#"{"type":"arena_join","arena":"friday"}"#) == .missingField)
        #expect(Self.code(#"{"type":"arena_join","arena":"friday","name":"ann","watch":"yes"}"#) == .badField)
        #expect(Self.code(#"{"type":"arena_results"}"#) == .missingField)
        #expect(Self.code(#"{"type":"arena_join","arena":"friday","name":"ann","ticket":"short"}"#) == .badField)
    }

    @Test func aJoinCarriesBotAndWatch() throws {
        let request = try Self.decode(#"{"type":"arena_join","arena":"friday","name":"bot-1","bot":true,"watch":true}"#).get()
        #expect(request.message == .arena(.join(ArenaJoinRequest(arena: "friday", name: "bot-1", bot: true, watch: true))))
        let ticket = String(repeating: "A", count: 43)
        let handed = try Self.decode(#"{"type":"arena_join","arena":"friday","name":"ann","ticket":"\#(ticket)"}"#).get()
        #expect(handed.message == .arena(.join(ArenaJoinRequest(arena: "friday", name: "ann", ticket: ticket))))
        #expect(try Self.decode(String(decoding: ClientMessageEncoder.line(handed).dropLast(), as: UTF8.self)).get() == handed)
    }
}

/// The arena's three stated messages (`arenas`, `arena`, `arena_results`) pinned to their exact
/// lines for fixed values, and each line decoded back to its value: the shared header they are
/// built from changes no byte on the wire.
@Suite struct ArenaLinePinTests {
    static let entry = ArenaEntry(rank: 1, name: "ann", score: 9, games: 5, wins: 4, streak: 2, fire: true, rating: 1712, provisional: true,
                                  bot: false, paused: false, playing: "arena-friday-3", performance: nil)

    static func pinned(_ message: ServerMessage, _ expected: String) {
        let line = ServerMessageCoding.line(message)
        #expect(String(decoding: line, as: UTF8.self) == expected + "\n")
        #expect(ServerMessageCoding.decode(Array(line.dropLast())) == .success(message))
    }

    @Test func arenasListsEachSummaryAsBefore() {
        Self.pinned(.arenas([ArenaSummary(header: ArenaHeader(arena: "friday", variant: .junior, rated: false, state: .running, endsAt: 601_000),
                                          startsAt: 1_000, players: 12, leader: "ann"),
                             ArenaSummary(header: ArenaHeader(arena: "later", variant: .classic, rated: true, state: .starting, endsAt: 900_000),
                                          startsAt: 300_000, players: 0)], id: "l"),
                    #"{"arenas":[{"arena":"friday","endsAt":601000,"leader":"ann","players":12,"rated":false,"startsAt":1000,"state":"running","variant":"junior"},"#
                    + #"{"arena":"later","endsAt":900000,"players":0,"rated":true,"startsAt":300000,"state":"starting","variant":"classic"}],"id":"l","type":"arenas"}"#)
    }

    @Test func anArenaStateIsAsBefore() {
        let view = ArenaView(header: ArenaHeader(arena: "friday", variant: .classic, rated: true, state: .running, endsAt: 601_000), startsAt: 1_000,
                             standings: [Self.entry], boards: [ArenaBoard(match: "arena-friday-3", players: ["ann", "bob"], scores: [9, 1])])
        Self.pinned(.arena(view, id: 1),
                    #"{"arena":"friday","boards":[{"match":"arena-friday-3","players":["ann","bob"],"scores":[9,1]}],"endsAt":601000,"id":1,"#
                    + #""rated":true,"standings":[{"bot":false,"fire":true,"games":5,"name":"ann","paused":false,"playing":"arena-friday-3","#
                    + #""provisional":true,"rank":1,"rating":1712,"score":9,"streak":2,"wins":4}],"startsAt":1000,"state":"running","type":"arena","variant":"classic"}"#)
        Self.pinned(.arena(view, id: nil),
                    #"{"arena":"friday","boards":[{"match":"arena-friday-3","players":["ann","bob"],"scores":[9,1]}],"endsAt":601000,"#
                    + #""rated":true,"standings":[{"bot":false,"fire":true,"games":5,"name":"ann","paused":false,"playing":"arena-friday-3","#
                    + #""provisional":true,"rank":1,"rating":1712,"score":9,"streak":2,"wins":4}],"startsAt":1000,"state":"running","type":"arena","variant":"classic"}"#)
    }

    @Test func anArenasResultsAreAsBefore() {
        var entry = Self.entry
        entry.playing = nil
        entry.performance = 1_650
        let results = ArenaResults(header: ArenaHeader(arena: "friday", variant: .classic, rated: true, state: .finished, endsAt: 601_000),
                                   standings: [entry], winners: ["ann"])
        Self.pinned(.arenaResults(results, id: "r"),
                    #"{"arena":"friday","endsAt":601000,"id":"r","rated":true,"standings":[{"bot":false,"fire":true,"games":5,"name":"ann","#
                    + #""paused":false,"performance":1650,"provisional":true,"rank":1,"rating":1712,"score":9,"streak":2,"wins":4}],"#
                    + #""state":"finished","type":"arena_results","variant":"classic","winners":["ann"]}"#)
    }
}
