import Foundation
import SetDatabase
import SetNet
import SetRules
import SetServer
import SetWire
import Testing

/// Whose chat is counted together and whom an operator silences, over real loopback sockets from
/// several client addresses: the contract between `PlayerIdentity`, the accounts and chat limits.
@Suite(.serialized) struct ChatIdentityTests {
    static let annKey = String(repeating: "a1", count: 32)
    static let bobKey = String(repeating: "b2", count: 32)
    static let danKey = String(repeating: "d4", count: 32)

    @Test func anAccountFromTwoAddressesSharesOneAllowanceAndSoDoTwoGuestsBehindOneAddress() throws {
        let server = try TestServer()
        defer { server.stop() }
        // Ann's account plays from one address and watches another match from a second.
        let ann = try TestClient.joined(server, "ann", key: Self.annKey, from: "127.0.0.2")
        let bob = try TestClient.joined(server, "bob", key: nil, from: "127.0.0.4")
        try ann.awaitSeq(bob.view!.seq)
        let other = try TestClient.joined(server, "cy", key: nil, from: "127.0.0.5", match: "n")
        let annWatching = try TestClient.joined(server, "ann", key: Self.annKey, from: "127.0.0.3", role: .spectator, match: "n")
        // A spectator is answered at once and its account learnt after (`learnAccount`), on the
        // store's player lane, which answers in order: a keyed player's join, looked up on that
        // lane after it, is answered only once the server knows whose lines the spectator's are.
        _ = try TestClient.joined(server, "dan", key: Self.danKey, from: "127.0.0.7", match: "p")
        for text in ["one", "two", "three"] { #expect(try ann.say(text) == nil) }
        for text in ["four", "five"] { #expect(try annWatching.say(text) == nil) }
        #expect(try ann.say("six")?.code == .chatLimited, "her second address bought her no lines")
        #expect(try annWatching.say("six")?.code == .chatLimited)
        #expect(try bob.say("mine are my own") == nil, "another person's allowance is untouched")

        // Two guests behind one address (a household, a café) are one person to the limit.
        let dee = try TestClient.joined(server, "dee", key: nil, from: "127.0.0.6", role: .spectator)
        let eli = try TestClient.joined(server, "eli", key: nil, from: "127.0.0.6", role: .spectator, match: "n")
        for text in ["a", "b", "c"] { #expect(try dee.say(text) == nil) }
        for text in ["d", "e"] { #expect(try eli.say(text) == nil) }
        #expect(try eli.say("f")?.code == .chatLimited)
        #expect(try dee.say("f")?.code == .chatLimited)
        #expect(try other.say("fresh address") == nil)
        server.advance(by: 10_000)
        #expect(try annWatching.say("six") == nil, "a whole window later all of it is back")
        #expect(try eli.say("f") == nil)
    }

    /// The operator reads an account's identity in the accounts database and writes it into
    /// `silenced`: the database's own spelling and the bare digest both reach that account, and only it.
    @Test func anOperatorSilencesAnAccountByTheIdentityTheAccountsDatabaseShows() throws {
        let data = NSTemporaryDirectory() + "setgame-chat-\(UUID().uuidString)"
        let server = try TestServer { $0.dataDirectory = data }
        defer { server.stop() }
        let ann = try TestClient.joined(server, "ann", key: Self.annKey, from: "127.0.0.2")
        let bob = try TestClient.joined(server, "bob", key: Self.bobKey, from: "127.0.0.2")
        try ann.awaitSeq(bob.view!.seq)
        #expect(try ann.say("before") == nil)

        let identity = try #require(try dataFolderAccounts(data).query("SELECT identity FROM accounts WHERE name = 'ann'", []).first?.text(0))
        #expect(identity.hasPrefix("key:"))
        let silenced = data + "/silenced"
        let lines = ["account \(identity)", "account \(identity.dropFirst(4))", "account \(identity.dropFirst(4).uppercased())"]
        for (index, line) in lines.enumerated() {
            // Another size each time: the server sees the change even within one tick of the file's clock.
            try "#\(String(repeating: " ", count: index)) too loud\n\(line)\n".write(toFile: silenced, atomically: true, encoding: .utf8)
            server.advance(by: 1_000)
            #expect(try ann.say("during \(index)")?.code == .chatSilenced, "\(line)")
            #expect(try bob.say("bob \(index)") == nil, "same address, another account")
        }
        try "".write(toFile: silenced, atomically: true, encoding: .utf8)
        server.advance(by: 1_000)
        #expect(try ann.say("after") == nil)
    }
}
