import Foundation
import Glibc
import Synchronization
import Testing
import SetClient
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

    /// A folder others may write in (a shared fallback someone made first) keeps no token: one
    /// found there may be planted, and one written there may be read.
    @Test func aFolderOthersMayWriteInKeepsNoToken() throws {
        let folder = "/tmp/setgame-tokens-\(UInt32.random(in: 0...UInt32.max))"
        defer { _ = try? FileManager.default.removeItem(atPath: folder) }
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
        chmod(folder, 0o777)
        try "join planted\tplanted-token\n".write(toFile: folder + "/seats", atomically: false, encoding: .utf8)
        let store = SeatTokenStore(directory: folder)
        #expect(store.problem?.contains("can be written by other users") == true)
        #expect(store.token(for: "join planted") == nil, "a planted token is not taken")
        store.set("mine", for: "join ann")
        #expect(try String(contentsOfFile: folder + "/seats", encoding: .utf8) == "join planted\tplanted-token\n", "nothing written")
    }

    /// The seats file and its lock are never followed through a link to a file of someone else's.
    @Test func linksInTheFolderAreNotFollowed() throws {
        let folder = "/tmp/setgame-tokens-\(UInt32.random(in: 0...UInt32.max))"
        let victim = folder + "-victim"
        defer {
            _ = try? FileManager.default.removeItem(atPath: folder)
            _ = try? FileManager.default.removeItem(atPath: victim)
        }
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
        chmod(folder, 0o700)
        try "join ann\tvictim-token\n".write(toFile: victim, atomically: false, encoding: .utf8)
        symlink(victim, folder + "/seats")
        let store = SeatTokenStore(directory: folder)
        #expect(store.problem == nil)
        #expect(store.token(for: "join ann") == nil, "read through a link")
        symlink(victim, folder + "/seats.lock")
        store.set("mine", for: "join ann")
        #expect(try String(contentsOfFile: victim, encoding: .utf8) == "join ann\tvictim-token\n", "the victim's file is untouched")
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

    /// Doors starting their house bot at the same moment all play under one account: a key made
    /// while another was being kept never replaces the one kept first.
    @Test func accountKeysMadeAtOnceAreOneKey() throws {
        for _ in 0..<10 {
            let folder = "/tmp/setgame-accounts-\(UInt32.random(in: 0...UInt32.max))"
            defer { _ = try? FileManager.default.removeItem(atPath: folder) }
            let keys = Mutex<[String?]>([])
            DispatchQueue.concurrentPerform(iterations: 16) { _ in
                let key = SeatTokenStore(accountsIn: folder).accountKey(for: "bot:bot-hard@door")
                keys.withLock { $0.append(key) }
            }
            let all = keys.withLock { $0 }
            #expect(all.count == 16 && all.allSatisfy { $0 != nil && $0 == all[0] }, "\(Swift.Set(all))")
        }
    }
}
