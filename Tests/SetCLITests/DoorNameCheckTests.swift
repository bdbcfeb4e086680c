import Foundation
import SetNet
import SetServer
import SetWire
import Testing
@testable import SetDoor

/// The door menu's "7. Your name" asks the server, over the door's socket as the player's key,
/// whether the name is free to it: a name kept for the house (`guest-…`, `bot-…`) or another
/// account's is refused with the server's reason when typed, not at the next game; a name one key
/// chose is its own at once.
@Suite struct DoorNameCheckTests {
    static let fingerprint = "SHA256:" + String(repeating: "B", count: 42) + "Q"

    @Test func reservedAndTakenNamesAreRefusedWithTheServersReason() throws {
        let folder = NSTemporaryDirectory() + "door-name-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        var config = ServerConfig()
        config.port = 0
        config.door.socket = folder + "/door.sock"
        let server = try Server(config: config, log: .silent)
        let port = server.port, control = server.control
        let done = DispatchSemaphore(value: 0)
        Server.runOnNewThread(server) { done.signal() }
        defer {
            control.stop()
            done.wait()
        }
        // Ann's account sits under "ann".
        let ann = LineSocket(adopting: try Sockets.connect(host: "127.0.0.1", port: port), maxLineBytes: 1 << 20, maxQueuedBytes: .max)
        var join = JoinRequest(name: "ann", match: "m")
        join.account = String(repeating: "a1", count: 32)
        ann.send(ClientMessageEncoder.line(ClientRequest(.join(join))))
        ann.flush()
        Sockets.setReceiveTimeout(ann.fd, milliseconds: 10_000)
        var seated = false
        while !seated, case .lines(let lines) = ann.read() {
            seated = lines.contains { if case .complete(let bytes) = $0 { String(decoding: bytes, as: UTF8.self).contains("\"snapshot\"") } else { false } }
        }
        #expect(seated)
        let route = UnixRoute(path: config.door.socket!, greeting: ClientMessageEncoder.line(ClientRequest(.door(
            DoorAttestation(fingerprint: Self.fingerprint, address: "127.0.0.1")))))
        // The profile check the menu made before could not see a name kept for the house.
        for name in ["guest-12", "bot-easy", "key-abc"] {
            guard case .failure(let refusal) = DoorAccounts.claimName(name, route: route) else {
                Issue.record("\(name) was taken")
                continue
            }
            #expect(refusal.code == .nameTaken, "\(name): \(refusal)")
            #expect(!refusal.message.isEmpty)
        }
        guard case .failure(let taken) = DoorAccounts.claimName("ANN", route: route) else {
            Issue.record("another account's name was taken")
            return
        }
        #expect(taken.code == .nameTaken && taken.message.contains("ANN"), "\(taken)")
        #expect(try DoorAccounts.claimName("sol", route: route).get() == ())
        // The name is the key's from its choice: another key is refused it before either plays.
        let other = UnixRoute(path: config.door.socket!, greeting: ClientMessageEncoder.line(ClientRequest(.door(
            DoorAttestation(fingerprint: "SHA256:" + String(repeating: "C", count: 42) + "Q", address: "127.0.0.1")))))
        guard case .failure(let chosen) = DoorAccounts.claimName("Sol", route: other) else {
            Issue.record("a second key took the name the first had chosen")
            return
        }
        #expect(chosen.code == .nameTaken && chosen.message.contains("belongs to another player"), "\(chosen)")
        withExtendedLifetime(ann) {}
    }
}
