import Foundation
import SetNet
import SetRules
@testable import SetServer
import SetWire
import Testing

/// Issue 32, "Who a player is": a door guest is a guest, the names the server hands out are kept
/// for what they name, a key's bot match is its own, look-alike names are one name, and only a
/// seated join makes or renames an account. Over real sockets, TCP and the door's Unix socket.
@Suite(.serialized) struct IdentityTests {
    static let annKey = String(repeating: "a1", count: 32)
    static let bobKey = String(repeating: "b2", count: 32)
    static let eveKey = String(repeating: "e5", count: 32)
    static let fingerprint = DoorSocketTests.fingerprint
    static let otherFingerprint = "SHA256:" + String(repeating: "B", count: 42) + "Q"

    /// A door connection that has said who it is.
    func door(_ path: String, fingerprint: String? = nil, houseBot: Bool = false, match: String? = nil) throws -> TestClient {
        let client = try DoorSocketTests.door(path)
        client.send(.door(DoorAttestation(fingerprint: fingerprint, address: "203.0.113.5", houseBot: houseBot, match: match)))
        return client
    }

    /// A house bot the door vouches for, joining `match` as `name` under its account key: the
    /// connection, and the join's refusal if it was refused.
    func houseBot(_ path: String, _ name: String, match: String, attestedMatch: String? = nil) throws -> (TestClient, WireError?) {
        let bot = try door(path, houseBot: true, match: attestedMatch)
        var request = JoinRequest(name: name, match: match)
        request.account = Self.bobKey
        request.bot = true
        return (bot, try bot.joinOutcome(request))
    }

    func join(_ client: TestClient, _ name: String, key: String? = nil, match: String? = "m", variant: Variant? = nil) throws -> WireError? {
        var request = JoinRequest(name: name, match: match, variant: variant)
        request.account = key
        return try client.joinOutcome(request)
    }

    /// Whether an account is named `name` (by `profile`).
    func hasAccount(_ server: TestServer, _ name: String) throws -> Bool {
        let client = try TestClient.greeted(server)
        client.send(.account(.profile(name: name)), id: "p")
        return try client.waitFor("profile") { message -> Bool? in
            if case .accountInfo = message { return true }
            if case .error(let error, _) = message, error.code == .noSuchPlayer { return false }
            return nil
        }
    }

    // MARK: 1. A door guest is a guest

    @Test func aDoorGuestMakesNoAccountWhateverKeyItsClientSends() throws {
        let (server, path) = try DoorSocketTests.server()
        defer { server.stop() }
        let guest = try door(path)
        #expect(try join(guest, "guest-4321", key: Self.annKey) == nil)
        #expect(try !hasAccount(server, "guest-4321"), "a guest is a guest: no account")
        // The house bot the door vouches for keeps its account, listed as a bot.
        let (bot, refused) = try houseBot(path, "bot-easy", match: "m")
        #expect(refused == nil)
        #expect(try hasAccount(server, "bot-easy"))
        // A TCP client's key is its account, as before.
        let tcp = try TestClient.greeted(server)
        #expect(try join(tcp, "tess", key: Self.eveKey, match: "t") == nil)
        #expect(try hasAccount(server, "tess"))
        withExtendedLifetime((guest, bot, tcp)) {}
    }

    /// A house bot's account is the door's own: the new keys behind one address (a classroom)
    /// may have spent its allowance of new accounts, and the first duel against that bot still
    /// gets its bot, which comes from the same address.
    @Test func aHouseBotsAccountCostsItsPlayersAddressNothing() throws {
        let (server, path) = try DoorSocketTests.server {
            $0.recordLimits.accountsPerAddress = RecordLimits.Bucket(burst: 1, everyMs: 60_000)
        }
        defer { server.stop() }
        let first = try door(path, fingerprint: Self.fingerprint)
        #expect(try join(first, DoorAttestation.name(fingerprint: Self.fingerprint), match: "a") == nil)
        let second = try door(path, fingerprint: Self.otherFingerprint)
        #expect(try join(second, DoorAttestation.name(fingerprint: Self.otherFingerprint), match: "b")?.code == .accountLimit)
        let (bot, refused) = try houseBot(path, "bot-hard", match: "a")
        #expect(refused == nil)
        #expect(try hasAccount(server, "bot-hard"))
        #expect(try join(second, DoorAttestation.name(fingerprint: Self.otherFingerprint), match: "b")?.code == .accountLimit,
                "and the address's allowance is still spent")
        withExtendedLifetime((first, second, bot)) {}
    }

    // MARK: 2. Reserved names

    @Test func aTcpJoinCannotTakeAGuestNameAndIsOfferedOneItMay() throws {
        let server = try TestServer()
        defer { server.stop() }
        let client = try TestClient.greeted(server)
        for name in ["guest-4321", "Guest-1", "\u{0261}uest-77", "guest\u{2010}5"] {
            let refused = try #require(try join(client, name, key: Self.annKey))
            #expect(refused.code == .nameTaken, "\(name)")
            let suggestion = try #require(refused.details["suggestion"]?.stringValue)
            #expect(!PlayerName.skeleton(suggestion).hasPrefix("guest-"), "\(suggestion)")
        }
        let refused = try #require(try join(client, "guest-4321", key: nil))
        #expect(refused.details["suggestion"]?.stringValue == "guest4321")
        #expect(try join(client, "guest4321", key: nil) == nil, "the suggestion is free")
        #expect(try !hasAccount(server, "guest-4321"))
    }

    @Test func aKeysDoorNameIsThatKeysAlone() throws {
        let (server, path) = try DoorSocketTests.server()
        defer { server.stop() }
        let name = DoorAttestation.name(fingerprint: Self.fingerprint)
        let tcp = try TestClient.greeted(server)
        #expect(try join(tcp, name, key: Self.annKey)?.code == .nameTaken)
        #expect(try join(tcp, name.uppercased(), key: nil)?.code == .nameTaken)
        let stranger = try door(path, fingerprint: Self.otherFingerprint)
        #expect(try join(stranger, name)?.code == .nameTaken, "another key")
        let guest = try door(path)
        #expect(try join(guest, name)?.code == .nameTaken, "a door guest")
        // The key itself takes it at its first login, as an account of its own.
        let owner = try door(path, fingerprint: Self.fingerprint)
        #expect(try join(owner, name, match: "k") == nil)
        #expect(try hasAccount(server, name))
        withExtendedLifetime((stranger, guest, owner)) {}
    }

    @Test func theHouseBotsNamesAreTheDoorsOnAServerWithADoor() throws {
        let (server, path) = try DoorSocketTests.server()
        defer { server.stop() }
        let tcp = try TestClient.greeted(server)
        for name in ["bot-easy", "BOT-normal", "bot-hard", "bot-instant", "b\u{043E}t-easy"] {
            let refused = try #require(try join(tcp, name, key: Self.annKey), "\(name)")
            #expect(refused.code == .nameTaken)
            let suggestion = try #require(refused.details["suggestion"]?.stringValue)
            #expect(!["bot-easy", "bot-normal", "bot-hard", "bot-instant"].contains(PlayerName.skeleton(suggestion)), "\(suggestion)")
        }
        #expect(try join(tcp, "bot-medium", key: Self.annKey) == nil, "only the house bots' own names are kept")
        let key = try door(path, fingerprint: Self.fingerprint)
        #expect(try join(key, "bot-easy", match: "k")?.code == .nameTaken, "a player through the door is no house bot")
        let (bot, refused) = try houseBot(path, "bot-easy", match: "b")
        #expect(refused == nil)
        withExtendedLifetime((key, bot)) {}
    }

    @Test func aSpectatorCannotWatchUnderANameTheDoorHandsOut() throws {
        let (server, path) = try DoorSocketTests.server()
        defer { server.stop() }
        let player = try TestClient.greeted(server)
        #expect(try join(player, "ann", match: "m") == nil)
        let tcp = try TestClient.greeted(server)
        for name in ["guest-1234", DoorAttestation.name(fingerprint: Self.fingerprint), "bot-hard"] {
            let refused = try #require(try tcp.joinOutcome(JoinRequest(role: .spectator, name: name, match: "m")), "\(name)")
            #expect(refused.code == .nameTaken && refused.details["suggestion"] != nil, "\(name)")
        }
        #expect(try tcp.joinOutcome(JoinRequest(role: .spectator, name: "eve", match: "m")) == nil)
        // The door's own guest and key watch under the names the door gave them.
        let guest = try door(path)
        #expect(try guest.joinOutcome(JoinRequest(role: .spectator, name: "guest-1234", match: "m")) == nil)
        let key = try door(path, fingerprint: Self.fingerprint)
        #expect(try key.joinOutcome(JoinRequest(role: .spectator, name: DoorAttestation.name(fingerprint: Self.fingerprint), match: "m")) == nil)
        withExtendedLifetime((player, guest, key)) {}
    }

    @Test func withoutADoorTheBotNamesAreStillTheHouseBots() throws {
        // Nodes share one store of names: a node without a door keeps them as one with a door
        // does (issue 42 item 5), so a TCP account cannot take `bot-easy` for the door's house bot.
        let server = try TestServer()
        defer { server.stop() }
        let client = try TestClient.greeted(server)
        for name in ["bot-easy", "BOT-NORMAL", "b\u{043E}t-hard"] {
            let refused = try #require(try join(client, name, key: Self.annKey), "\(name)")
            #expect(refused.code == .nameTaken, "\(name)")
        }
        #expect(try !hasAccount(server, "bot-easy"))
        #expect(try join(client, "bot-medium", key: Self.annKey) == nil, "only the house bots' own names are kept")
    }

    @Test func setgamePlaysOwnTableLetsItsBotKeepItsName() throws {
        let server = try TestServer { $0.accounts.keepsHouseBotNames = false }
        defer { server.stop() }
        let client = try TestClient.greeted(server)
        #expect(try join(client, "bot-easy", key: nil) == nil)
    }

    // MARK: 3. A key's bot match is its own

    @Test func aDoorBotMatchSeatsOnlyTheConnectionsTheDoorStartedForIt() throws {
        let (server, path) = try DoorSocketTests.server()
        defer { server.stop() }
        let match = "bot-0123abcd"
        // Nobody gets there first: not over TCP, not through the door without the match on its line.
        let tcp = try TestClient.greeted(server)
        #expect(try join(tcp, "mallory", key: Self.eveKey, match: match)?.code == .matchFull)
        let otherDoor = try door(path, fingerprint: Self.otherFingerprint, match: "bot-99999999")
        #expect(try join(otherDoor, DoorAttestation.name(fingerprint: Self.otherFingerprint), match: match)?.code == .matchFull)
        #expect(try !hasAccount(server, "mallory"), "a refused join makes no account")

        let player = try door(path, fingerprint: Self.fingerprint, match: match)
        #expect(try join(player, DoorAttestation.name(fingerprint: Self.fingerprint), match: match) == nil)
        let (bot, refused) = try houseBot(path, "bot-easy", match: match, attestedMatch: match)
        #expect(refused == nil)
        // Anyone may watch it.
        let watcher = try TestClient.greeted(server)
        #expect(try watcher.joinOutcome(JoinRequest(role: .spectator, name: "eve", match: match)) == nil)
        withExtendedLifetime((otherDoor, player, bot, watcher)) {}
    }

    // MARK: 4. Look-alike and invisible names

    @Test func lookAlikesOfAnOwnedNameAreTakenByItsOwner() throws {
        let server = try TestServer()
        defer { server.stop() }
        let alice = try TestClient.greeted(server)
        #expect(try join(alice, "alice", key: Self.annKey, match: "a") == nil)
        let other = try TestClient.greeted(server)
        for name in ["\u{0430}lice", "\u{FF41}\u{FF4C}\u{FF49}\u{FF43}\u{FF45}", "\u{0251}lice", "al\u{0131}ce", "\u{1D00}lice", "ALICE"] {
            #expect(try join(other, name, key: Self.bobKey)?.code == .nameTaken, "an account: \(name)")
            #expect(try join(other, name, key: nil)?.code == .nameTaken, "a guest: \(name)")
        }
        #expect(try join(other, "alicia", key: Self.bobKey) == nil)
        withExtendedLifetime(alice) {}
    }

    @Test func aLogWrittenBeforeLookAlikesCompareEqualIsImportedAsItWas() throws {
        // Two accounts whose names are one skeleton, from before the rule: both are imported,
        // the first keeps the name (and its look-alikes), and an exact second owner is still damage.
        var check = AccountLogCheck()
        let alice = AccountLogRecord.created(id: 0, identity: .accountKey(digest: "a"), name: "alice", bot: false, wallSeconds: 1)
        let lookAlike = AccountLogRecord.created(id: 1, identity: .accountKey(digest: "b"), name: "\u{0430}lice", bot: false, wallSeconds: 2)
        #expect(check.problem(with: alice) == nil)
        check.apply(alice)
        #expect(check.problem(with: lookAlike) == nil)
        check.apply(lookAlike)
        #expect(check.problem(with: .created(id: 2, identity: .accountKey(digest: "c"), name: "ALICE", bot: false, wallSeconds: 3)) != nil)
        #expect(check.problem(with: .renamed(id: 1, name: "Alice")) != nil)
        #expect(check.problem(with: .renamed(id: 1, name: "\u{0430}LICE")) == nil)

        let folder = temporaryFolder("setgame-lookalikes")
        try FileManager.default.createDirectory(atPath: folder + "/accounts", withIntermediateDirectories: true)
        try """
            {"id":0,"identity":"key:a","name":"alice","type":"account","wall":1}
            {"id":1,"identity":"key:b","name":"\u{0430}lice","type":"account","wall":2}

            """.write(toFile: folder + "/accounts/accounts.jsonl", atomically: true, encoding: .utf8)
        let store = try SQLAccountStore.open(.memory, dataFolder: folder, policy: .standard, wallSeconds: 5, log: .silent)
        #expect(try store.account(named: "\u{0251}lice")?.id == 0)
        #expect(try store.account(id: 1)?.name == "\u{0430}lice")
    }

    @Test func aNameWithNothingVisibleIsABadName() throws {
        let server = try TestServer()
        defer { server.stop() }
        let client = try TestClient.greeted(server)
        for name in ["\u{3164}\u{3164}\u{3164}", "\u{200B}", "\u{2060}\u{FEFF}", "\u{2800}"] {
            let refused = try #require(try join(client, name, key: Self.annKey))
            #expect(refused.code == .badField && refused.details["field"] == "name", "\(name.unicodeScalars.map(\.value))")
        }
    }

    // MARK: 5. Only a seated join makes or renames an account

    @Test func aRefusedJoinNeitherMakesNorRenamesAnAccount() throws {
        let data = NSTemporaryDirectory() + "setgame-identity-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: data, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: data) }
        let server = try TestServer { $0.dataDirectory = data }
        defer { server.stop() }
        let first = try TestClient.greeted(server)
        #expect(try join(first, "ann", key: Self.annKey) == nil)
        let second = try TestClient.greeted(server)
        #expect(try join(second, "bob", key: Self.bobKey) == nil)
        let accounts = try accountRows(data)

        // The match is full: ann asking for another name there, and a new key, are refused.
        // (A connection speaks for the first key it joined with: the newcomer has its own.)
        let again = try TestClient.greeted(server)
        let newcomer = try TestClient.greeted(server)
        #expect(try join(again, "anna", key: Self.annKey)?.code == .matchFull)
        #expect(try join(newcomer, "newcomer", key: Self.eveKey)?.code == .matchFull)
        // Another variant than the match's.
        #expect(try join(again, "anna", key: Self.annKey, variant: .ultra)?.code == .variantMismatch)
        #expect(try join(newcomer, "newcomer", key: Self.eveKey, variant: .ultra)?.code == .variantMismatch)
        #expect(try !hasAccount(server, "anna"))
        #expect(try !hasAccount(server, "newcomer"))
        #expect(try hasAccount(server, "ann"), "ann keeps her name")
        #expect(try accountRows(data) == accounts, "nothing written for a refusal")

        // Seated elsewhere, the rename and the new account are made.
        #expect(try join(again, "anna", key: Self.annKey, match: "n") == nil)
        #expect(try hasAccount(server, "anna"))
        #expect(try join(newcomer, "newcomer", key: Self.eveKey, match: "o") == nil)
        #expect(try hasAccount(server, "newcomer"))
        withExtendedLifetime((first, second)) {}
    }
}
