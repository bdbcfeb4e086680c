import Glibc
import SetNet
import SetRules
@testable import SetServer
import SetTestSupport
import SetWire
import Testing

/// A connection in no match is in the loop's priority lane (its questions and joins are served
/// within a few handlers of a busy batch); taking a seat or watching moves it to the ordinary
/// lane with the matches' sockets, and leaving the match moves it back.
@Suite struct PriorityLaneServerTests {
    @Test func aConnectionIsInTheLaneExactlyWhileItIsInNoMatch() throws {
        let loop = try EventLoop()
        let clock = ManualTime(1_000)
        let lobby = Lobby(settings: .standard, seatWaitMs: 60_000, maxMatches: 10, journals: nil,
                          nextSeed: { 7 }, now: { clock.now() })
        let table = ConnectionTable(loop: loop, clock: clock, limits: ServerLimits(), crowdRoundMs: 100,
                                    log: ThrottledLog(.silent, clock: clock), lobby: lobby)
        var fds: [Int32] = [0, 0]
        #expect(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &fds) == 0)
        defer { Glibc.close(fds[1]) }
        let connection = try #require(table.open(LineSocket(adopting: fds[0]), address: "10.0.0.1"))
        defer { connection.socket.close() }
        let room = MatchRoom(host: MatchHost(name: "m", mode: .duel, settings: .standard, seatWaitMs: 60_000), journal: MemoryJournal()) { 7 }
        #expect(loop.isPrioritized(fds[0]), "greeted")
        connection.session = .admitting
        #expect(loop.isPrioritized(fds[0]), "admitting")
        connection.session = .player(room, .first)
        #expect(!loop.isPrioritized(fds[0]), "seated")
        connection.session = .spectator(room)
        #expect(!loop.isPrioritized(fds[0]), "watching")
        connection.session = .greeted
        #expect(loop.isPrioritized(fds[0]), "left the match")
    }
}
