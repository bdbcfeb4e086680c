import Foundation
import Testing
@testable import SetTerminal

/// Seat tokens on disk: the same command finds its token again, another name does not take it.
@Suite struct SeatTokenStoreTests {
    @Test func tokensAreKeptPerPlayerName() throws {
        let folder = "/tmp/setgame-tokens-\(UInt32.random(in: 0...UInt32.max))"
        defer { _ = try? FileManager.default.removeItem(atPath: folder) }
        let store = SeatTokenStore(directory: folder)
        let ann = ClientOptions(name: "ann", match: "friday"), bob = ClientOptions(name: "bob", match: "friday")
        #expect(ann.seatKey != bob.seatKey)
        store.set("ann-token", for: ann.seatKey)
        #expect(store.token(for: bob.seatKey) == nil)
        #expect(store.token(for: ann.seatKey) == "ann-token")
    }
}

/// Many writers on one seats file at once: each keeps its own token, none is lost to another's
/// rewrite (four `join`s on one account once kept one token of four).
@Suite struct SeatTokenStoreConcurrencyTests {
    @Test func concurrentWritersKeepEveryToken() throws {
        let folder = "/tmp/setgame-tokens-\(UInt32.random(in: 0...UInt32.max))"
        defer { _ = try? FileManager.default.removeItem(atPath: folder) }
        let writers = 8, keysEach = 25
        // Threads, each with a store of its own: a separate open file, as separate processes have.
        let done = DispatchGroup()
        for writer in 0..<writers {
            done.enter()
            Thread.detachNewThread {
                let store = SeatTokenStore(directory: folder)
                for key in 0..<keysEach { store.set("token-\(writer)-\(key)", for: "join \(writer) \(key)") }
                done.leave()
            }
        }
        done.wait()
        let store = SeatTokenStore(directory: folder)
        let kept = store.entries()
        #expect(kept.count == writers * keysEach)
        for writer in 0..<writers {
            for key in 0..<keysEach { #expect(kept["join \(writer) \(key)"] == "token-\(writer)-\(key)") }
        }
        // Nothing but the file and its lock is left behind: no temporary file survives its rename.
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder).sorted() == ["seats", "seats.lock"])
    }
}
