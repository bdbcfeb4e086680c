import SetNet
import SetTestSupport
import Testing

/// A second bot on a bot runner's loop, seated as a spectator so it never acts, that serves as a
/// barrier: what it answers shows how far the loop has got. Its pings are answered, so it stays.
final class Beacon {
    let peer: FakePeer
    private var seq = 1

    init(_ peer: FakePeer) {
        self.peer = peer
        peer.send(FakeLines.welcome())
        _ = peer.await("join")
        peer.send(#"{"match":"b","mode":"duel","resumed":false,"role":"spectator","type":"joined"}"#)
    }

    /// Two round trips (a snapshot, then a gap the bot asks a snapshot for): the second is read
    /// only after the loop finished the iteration, tick included, in which it answered the first,
    /// so everything due when this began has been done and sent.
    func settle() {
        for _ in 0..<2 {
            peer.send(FakeLines.snapshot(seq: seq))
            peer.send(FakeLines.spectators(1, seq: seq + 2))
            seq += 3
            while true {
                guard let line = peer.readLine() else {
                    Issue.record("the beacon bot never asked for a snapshot")
                    return
                }
                if line.contains("\"type\":\"snapshot\"") { break }
                if line.contains("\"type\":\"ping\"") { peer.send(#"{"clientTime":0,"time":1000,"type":"pong"}"#) }
            }
        }
    }
}
