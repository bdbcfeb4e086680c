import SetRules
import SetWire
import Testing

/// The arena messages (issue 44), pinned as Protocol.md ("Arenas") shows them: every request
/// encodes to its line and decodes back, every server line decodes to what the screen needs.
@Suite struct ArenaWireTests {
    static func line(_ message: ClientMessage) -> String {
        String(decoding: ClientMessageEncoder.line(ClientRequest(message)).dropLast(), as: UTF8.self)
    }

    static func decoded(_ line: String) -> ClientMessage? {
        try? ClientMessageDecoder.decode(Array(line.utf8)).get().message
    }

    @Test func everyArenaRequestEncodesAndDecodesBack() {
        let requests: [(ArenaRequest, String)] = [
            (.list, #"{"type":"arenas"}"#),
            (.create(ArenaCreate(arena: "friday", minutes: 10, variant: .junior, rated: false, startsInS: 60)),
             #"{"arena":"friday","minutes":10,"rated":false,"startsInS":60,"type":"arena_create","variant":"junior"}"#),
            (.join(arena: "friday", name: "ann", bot: true, watch: true),
             #"{"arena":"friday","bot":true,"name":"ann","type":"arena_join","watch":true}"#),
            (.pause, #"{"type":"arena_pause"}"#),
            (.resume, #"{"type":"arena_resume"}"#),
            (.leave, #"{"type":"arena_leave"}"#),
            (.results(arena: "friday"), #"{"arena":"friday","type":"arena_results"}"#),
        ]
        for (request, expected) in requests {
            #expect(Self.line(.arena(request)) == expected)
            #expect(Self.decoded(expected) == .arena(request))
        }
    }

    @Test func aCreateTakesTheContractsDefaultsAndBounds() {
        #expect(Self.decoded(#"{"type":"arena_create","arena":"a","minutes":1}"#)
                == .arena(.create(ArenaCreate(arena: "a", minutes: 1, variant: .classic, rated: true, startsInS: 0))))
        for bad in [#"{"type":"arena_create","arena":"a","minutes":181,"variant":"classic"}"#,
                    #"{"type":"arena_create","arena":"a b","minutes":5,"variant":"classic"}"#,
                    #"{"type":"arena_create","arena":"a.b","minutes":5}"#,
                    #"{"type":"arena_results","arena":"abcdefghijklmnopqrstu"}"#,
                    #"{"type":"arena_create","arena":"a","minutes":5,"variant":"classic","startsInS":3601}"#,
                    #"{"type":"arena_join","arena":"a"}"#] {
            guard case .failure(let error) = ClientMessageDecoder.decode(Array(bad.utf8)) else {
                Issue.record("decoded \(bad)")
                continue
            }
            #expect(error.code == .badField || error.code == .missingField)
        }
    }

    @Test func theArenaStateDecodesWithItsStandingsAndBoards() throws {
        let line = #"{"type":"arena","arena":"friday","variant":"classic","rated":true,"state":"running","startsAt":1000,"endsAt":601000,"standings":[{"rank":1,"name":"ann","score":9,"games":5,"wins":4,"streak":2,"fire":true,"rating":1712,"provisional":false,"bot":false,"paused":false,"playing":"arena-friday-a-3"},{"rank":2,"name":"bob","score":6,"games":5,"wins":3,"streak":0,"fire":false,"bot":true,"paused":true}],"boards":[{"match":"arena-friday-a-3","players":["ann","bob"],"scores":[2,1]}]}"#
        guard case .success(.arena(let state, nil)) = ServerMessageCoding.decode(Array(line.utf8)) else {
            Issue.record("not an arena line")
            return
        }
        #expect(state.phase == .running && state.startsAt == 1_000 && state.endsAt == 601_000)
        #expect(state.standings == [
            ArenaEntry(rank: 1, name: "ann", score: 9, games: 5, wins: 4, streak: 2, fire: true, rating: 1712, playing: "arena-friday-a-3"),
            ArenaEntry(rank: 2, name: "bob", score: 6, games: 5, wins: 3, bot: true, paused: true),
        ])
        #expect(state.boards == [ArenaBoard(match: "arena-friday-a-3", players: ["ann", "bob"], scores: [2, 1])])
    }

    @Test func pairingListAndResultsDecodeAndABoardOfOnePlayerIsRefused() {
        let pairing = #"{"type":"arena_pairing","arena":"friday","match":"arena-friday-a-3","token":"0123456789abcdef0123456789abcdef","opponent":"bob"}"#
        #expect(ServerMessageCoding.decode(Array(pairing.utf8)) == .success(.arenaPairing(
            ArenaPairing(arena: "friday", match: "arena-friday-a-3", token: "0123456789abcdef0123456789abcdef", opponent: "bob"), id: nil)))
        let list = #"{"type":"arenas","arenas":[{"arena":"friday","variant":"classic","rated":true,"state":"starting","startsAt":1000,"endsAt":601000,"players":12}]}"#
        #expect(ServerMessageCoding.decode(Array(list.utf8)) == .success(.arenas(
            [ArenaSummary(arena: "friday", variant: .classic, rated: true, phase: .starting, startsAt: 1_000, endsAt: 601_000, players: 12)], id: nil)))
        let results = #"{"type":"arena_results","arena":"friday","variant":"classic","rated":true,"state":"finished","endsAt":601000,"standings":[{"rank":1,"name":"ann","score":13,"games":7,"wins":5,"streak":0,"fire":false,"performance":1810}],"winners":["ann"]}"#
        guard case .success(.arenaResults(let final, nil)) = ServerMessageCoding.decode(Array(results.utf8)) else {
            Issue.record("not results")
            return
        }
        #expect(final.winners == ["ann"] && final.standings.first?.performance == 1_810)
        let lonely = #"{"type":"arena","arena":"f","state":"running","startsAt":0,"endsAt":1,"boards":[{"match":"m","players":["ann"],"scores":[2]}]}"#
        guard case .failure(let error) = ServerMessageCoding.decode(Array(lonely.utf8)) else {
            Issue.record("a board of one decoded")
            return
        }
        #expect(error.code == .badField)
    }
}
