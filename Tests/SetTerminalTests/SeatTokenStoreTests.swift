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
