import Foundation
import SetRules
import SetServer
import SetTestSupport
import SetWire
import Testing

/// Issue 44: what any server answers about arenas from its store, over real sockets: an arena
/// created and listed, its name taken, its creator's allowance, its results (the room's own
/// requests: ArenaRoomTests).
@Suite struct ArenaRequestTests {
    static func client(_ server: TestServer) throws -> TestClient {
        let client = try TestClient(port: server.port)
        _ = try client.waitFor("welcome") { if case .welcome = $0 { true } else { nil } }
        return client
    }

    static func answer(_ client: TestClient, _ request: ArenaRequest, id: String) throws -> ServerMessage {
        client.send(.arena(request), id: .string(id))
        return try client.waitFor("the answer to \(id)") { message in
            switch message {
            case .arenas(_, .string(id)?), .arena(_, .string(id)?), .arenaResults(_, .string(id)?), .error(_, .string(id)?): message
            default: nil
            }
        }
    }

    /// A server on a data folder answers account questions on a read-only SQLite connection:
    /// `arena_create`, a write, is not asked there.
    @Test func anArenaIsCreatedInADataFoldersStore() throws {
        let folder = try DataFolderStoreTests.folder("arena-create")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let server = try TestServer { $0.dataDirectory = folder }
        defer { server.stop() }
        let made = try Self.answer(try Self.client(server), .create(ArenaCreation(arena: "filed", minutes: 5)), id: "c")
        guard case .arena(let view, _) = made else { Issue.record("not created: \(made)"); return }
        #expect(view.arena == "filed" && view.state == .running)
    }

    @Test func anArenaIsCreatedListedAndItsResultsAsked() throws {
        let server = try TestServer()
        defer { server.stop() }
        let ann = try Self.client(server)
        guard case .arenas(let none, _) = try Self.answer(ann, .list, id: "l0") else { Issue.record("no arenas line"); return }
        #expect(none.isEmpty)
        let made = try Self.answer(ann, .create(ArenaCreation(arena: "friday", minutes: 10, variant: .junior, rated: false, startsInS: 60)), id: "c1")
        guard case .arena(let view, _) = made else { Issue.record("created: \(made)"); return }
        #expect(view.arena == "friday" && view.variant == .junior && !view.rated && view.state == .starting)
        #expect(view.startsAt == 61_000 && view.endsAt == 661_000, "server times: the clock stands at 1000")
        #expect(view.standings.isEmpty && view.boards.isEmpty)
        guard case .error(let taken, _) = try Self.answer(ann, .create(ArenaCreation(arena: "friday", minutes: 5)), id: "c2") else {
            Issue.record("a second friday was made")
            return
        }
        #expect(taken.code == .arenaExists)
        guard case .arenas(let listed, _) = try Self.answer(try Self.client(server), .list, id: "l1") else { Issue.record("no arenas line"); return }
        let first = try #require(listed.first)
        #expect(listed.count == 1 && first.arena == "friday" && first.state == .starting && first.players == 0 && first.leader == nil)
        #expect(first.startsAt == 61_000 && first.endsAt == 661_000)
        // The server's clock moves on: the arena's times on it do not (the wall clock is counted
        // on by the server's own, not read afresh to the second for each answer).
        for step in 1...3 {
            server.advance(by: 350)
            guard case .arenas(let again, _) = try Self.answer(ann, .list, id: "l\(step + 1)") else { Issue.record("no arenas line"); return }
            #expect(again.first?.startsAt == 61_000 && again.first?.endsAt == 661_000, "after \(step * 350) ms")
        }
        guard case .arenaResults(let results, _) = try Self.answer(ann, .results(arena: "friday"), id: "r1") else { Issue.record("no results"); return }
        #expect(results.arena == "friday" && results.state == .starting && results.standings.isEmpty && results.winners.isEmpty)
        guard case .error(let none2, _) = try Self.answer(ann, .results(arena: "nothing"), id: "r2") else { Issue.record("results of nothing"); return }
        #expect(none2.code == .noSuchArena)
    }

    /// Three an hour from one address, whatever connection or account it comes with.
    @Test func oneAddressCreatesThreeArenasAnHour() throws {
        let server = try TestServer()
        defer { server.stop() }
        for index in 0..<3 {
            let made = try Self.answer(try Self.client(server), .create(ArenaCreation(arena: "a\(index)", minutes: 1)), id: "c\(index)")
            guard case .arena = made else { Issue.record("arena \(index) refused: \(made)"); return }
        }
        let key = String(repeating: "ab", count: 32)
        guard case .error(let limited, _) = try Self.answer(try Self.client(server), .create(ArenaCreation(arena: "a3", minutes: 1, account: key)),
                                                            id: "c3") else { Issue.record("a fourth arena was made"); return }
        #expect(limited.code == .rateLimited)
        guard case .error(let none, _) = try Self.answer(try Self.client(server), .results(arena: "a3"), id: "r") else { Issue.record("a3 exists"); return }
        #expect(none.code == .noSuchArena)
    }
}
