import Foundation
import Glibc
import SetNet
import SetWire
import Testing
@testable import SetBench

/// A blocking line client of the relay: reads wait, with a timeout only a broken relay reaches.
private final class RelayClient {
    let socket: LineSocket
    private var buffered: [String] = []

    init(port: UInt16, room: Int) throws {
        let fd = try Sockets.connect(host: "127.0.0.1", port: port)
        Sockets.setReceiveTimeout(fd, milliseconds: 10_000)
        socket = LineSocket(adopting: fd, maxQueuedBytes: .max)
        send("\(room)\n")
    }

    func send(_ text: String) {
        socket.send(Array(text.utf8))
        socket.flush()
    }

    /// The next line, or nil when none came in time.
    func next() -> String? {
        while buffered.isEmpty {
            guard case .lines(let lines) = socket.read() else { return nil }
            for case .complete(let bytes) in lines { buffered.append(String(decoding: bytes, as: UTF8.self)) }
        }
        return buffered.removeFirst()
    }
}

@Suite struct ReferenceRelayTests {
    @Test func deliversEveryLineToEveryOtherMemberOfTheRoomOnly() throws {
        let relay = try ReferenceRelay()
        relay.start()
        defer { relay.stop() }
        // Room 7: two players and a spectator; room 8 a pair beside it.
        let room = try (0..<3).map { _ in try RelayClient(port: relay.port, room: 7) }
        let other = try (0..<2).map { _ in try RelayClient(port: relay.port, room: 8) }
        for client in room { #expect(client.next() == "7", "the relay answers the room line when the member is placed") }
        for client in other { #expect(client.next() == "8") }

        // Lines cut anywhere and run together, as TCP may deliver them.
        let lines = (0..<2).map { sender in (0..<50).map { #"{"type":"event","from":\#(sender),"n":\#($0)}"# } }
        for (sender, ownLines) in lines.enumerated() {
            let stream = ownLines.map { $0 + "\n" }.joined()
            var cut = stream.startIndex
            var size = 1
            while cut < stream.endIndex {
                let end = stream.index(cut, offsetBy: size, limitedBy: stream.endIndex) ?? stream.endIndex
                room[sender].send(String(stream[cut..<end]))
                cut = end
                size = size % 97 + 13
            }
        }
        other[0].send("elsewhere\n")

        for (index, client) in room.enumerated() {
            let expected = lines.enumerated().filter { $0.offset != index }.flatMap(\.element)
            let received = (0..<expected.count).compactMap { _ in client.next() }
            // Each sender's lines in its order; the two senders' interleaving is the relay's.
            for sender in 0..<2 where sender != index {
                #expect(received.filter { $0.contains(#""from":\#(sender),"#) } == lines[sender])
            }
            #expect(received.count == expected.count && Set(received) == Set(expected), "member \(index) got only its room's others' lines")
        }
        #expect(other[1].next() == "elsewhere")
        // Nothing more was on its way to anyone: a last line is the next each one reads.
        room[2].send("last\n")
        for client in room.prefix(2) { #expect(client.next() == "last") }
        other[1].send("last8\n")
        #expect(other[0].next() == "last8")
    }

    @Test func theLoadCountsWhatTheRelayDelivered() throws {
        let relay = try ReferenceRelay()
        relay.start()
        defer { relay.stop() }
        let load = try RelayLoad(port: relay.port, rooms: 3, spectators: 2, lineBytes: 140)
        let result = try load.run(seconds: 60, stopAfterLines: 3_000)
        #expect(result.connections == 12)
        #expect(result.drops == 0)
        #expect(result.linesDelivered >= 3_000)
    }

    @Test func aLoadWhoseRelayDropsAMemberStopsWithTheReasonInsteadOfWaiting() throws {
        // A "relay" that takes one connection and closes it: that member will never be placed.
        let listener = try Sockets.listen(host: "127.0.0.1", port: 0)
        defer { Glibc.close(listener) }
        let port = Sockets.localPort(listener)
        Thread {
            let fd = accept(listener, nil, nil)
            if fd >= 0 { Glibc.close(fd) }
        }.start()
        let load = try RelayLoad(port: port, rooms: 2, spectators: 1, lineBytes: 100)
        #expect(throws: SystemCallError.self) { try load.run(seconds: 60) }
    }

    @Test func aLoadLineIsTheSizeAsked() {
        let line = RelayLoad.line(bytes: 145)
        #expect(line.count == 145 && line.last == 0x0A)
        #expect(String(decoding: line.dropLast(), as: UTF8.self).hasPrefix(#"{"type":"event","pad":"xxx"#))
    }
}

@Suite struct RelayRatioTests {
    @Test func theRatioIsTheServersDeliveriesOverTheRelaysInTheSameRun() {
        var load = LoadResult()
        load.eventsDelivered = 3_000_000
        load.seconds = 10
        var report = BenchReport(config: BenchConfig(), load: load, server: nil, machine: "test")
        #expect(report.relayRatio == nil)
        #expect(!report.table.contains("server / relay"))
        report.relay = RelayResult(linesDelivered: 2_000_000, seconds: 5, connections: 400)
        // 300,000 lines/s against 400,000.
        #expect(report.relayRatio == 0.75)
        #expect(report.table.contains("reference relay          2000000 lines delivered  (400000/s) over 400 connections, 0 drops"))
        #expect(report.table.contains("server / relay           0.750× the relay's delivered lines per second"))
        #expect(report.json.contains(#""relayRatio":0.75"#))
        #expect(report.json.contains(#""relayLinesPerSecond":400000"#))
        report.relay = RelayResult(linesDelivered: 0, seconds: 5)
        #expect(report.relayRatio == nil, "a relay that delivered nothing gives no ratio")
    }
}
