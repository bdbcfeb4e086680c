import SetArena
import SetDatabase
@testable import SetServer
import SetTestSupport
import SetWire
import Testing

/// Issue 44: the arenas an account's `profile` lists, on a real SQLite file and a real
/// PostgreSQL: the newest ten by their end, each with the player's place recounted from the
/// stored games; linked by the account (a rename keeps them, a guest of the same name is not
/// the account), whatever later writes of the player's row say; a finished arena's final places
/// are read as kept.
@Suite struct ArenaProfileStoreTests {
    @Test(arguments: TestStoreKind.allCases)
    func aProfileListsTheAccountsNewestArenas(kind: TestStoreKind) throws {
        guard let subject = try StoreUnderTest.make(kind) else { return }
        let store = subject.store, database = subject.database.database
        let ann = try store.create(.accountKey(digest: String(repeating: "a1", count: 32)), name: "ann", bot: false, wallSeconds: 1)
        let bob = try store.create(.accountKey(digest: String(repeating: "b2", count: 32)), name: "bob", bot: false, wallSeconds: 1)
        func player(_ name: String, account: Int?, pause: ArenaPause? = nil) -> StoredArenaPlayer {
            StoredArenaPlayer(entrant: ArenaEntrant(name: name, rating: nil), pause: pause, account: account)
        }
        // Twelve arenas, each ending a minute after the last; ann joined every one.
        for index in 1...12 {
            let name = "a\(index)"
            #expect(try ArenaStore.create(name, variant: index == 12 ? .junior : .classic, rated: index != 12, startsAt: 0,
                                          endsAt: Int64(index) * 60_000, wall: 0, address: "x", account: nil, in: database))
            try store.saveArenaPlayer(player("ann", account: ann.id), in: name)
        }
        // In the newest, bob (as "bobby") and a guest named "cat" play too: ann beats bob.
        try store.saveArenaPlayer(player("bobby", account: bob.id), in: "a12")
        try store.saveArenaPlayer(player("cat", account: nil), in: "a12")
        let game = ArenaGame(number: 1, players: ["ann", "bobby"])
        #expect(try store.dealArenaGame(game, tokens: ["t1", "t2"], in: "a12"))
        #expect(try store.finishArenaGame(game, .played(winner: "ann"), in: "a12"))
        // A pause written without the account keeps the link.
        try store.saveArenaPlayer(player("ann", account: nil, pause: .asked), in: "a12")

        let listed = try store.profileArenas(ofAccountNamed: "ANN", limit: ArenaProfiles.listed)
        #expect(listed.map(\.name) == (3...12).reversed().map { "a\($0)" }, "the newest ten, newest first")
        let newest = try #require(listed.first).line(at: 12 * 60_000 + 1)
        #expect(newest == .object(["arena": "a12", "variant": "junior", "rated": false, "state": "finished", "rank": 1, "score": 2,
                                   "games": 1, "players": 3, "wall": 720]))
        #expect(listed.last?.line(at: 0).objectValue?["state"] == "running")
        #expect(listed.last?.line(at: 0).objectValue?["games"] == 0)

        // Once the places are kept, a finished arena's line is read from them, not recounted
        // (its games gone here, to tell the two apart).
        try store.keepFinalPlaces(ArenaPlace.standings(of: try #require(try store.arena(named: "a12")).arena(at: 12 * 60_000 + 1)), in: "a12")
        try database.execute("DELETE FROM arena_games WHERE arena = 'a12'")
        #expect(try store.profileArenas(ofAccountNamed: "ann", limit: 1).first?.line(at: 0) == newest, "kept as it was final")

        // bob played under another name: it is his account's arena.
        let bobs = try store.profileArenas(ofAccountNamed: "bob", limit: 10)
        #expect(bobs.map(\.player) == ["bobby"])
        #expect(bobs.first?.line(at: 12 * 60_000).objectValue?["rank"] == 3, "a loss, behind the guest on fewer games")
        // An account made later under a guest's arena name is not that guest.
        _ = try store.create(.accountKey(digest: String(repeating: "c3", count: 32)), name: "cat", bot: false, wallSeconds: 1)
        #expect(try store.profileArenas(ofAccountNamed: "cat", limit: 10).isEmpty)
        #expect(try store.profileArenas(ofAccountNamed: "nobody", limit: 10).isEmpty)

        // The profile itself says whether there are arenas to read: only then are they read.
        for (name, joined) in [("ann", true), ("bob", true), ("cat", false)] {
            guard case .success(let profile) = try store.profile(name) else {
                Issue.record("no profile for \(name)")
                continue
            }
            #expect(profile.joinedArenas == joined, "\(name)")
            #expect(profile.info.fields["games"] == .int(0))
        }
    }
}
