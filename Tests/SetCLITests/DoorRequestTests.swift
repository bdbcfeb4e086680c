import Foundation
import SetCLI
import SetDoor
import SetRules
import Testing

/// The ssh command a player gives the door, and what sshd tells it about them: pure, so every
/// shortcut and every refusal is checked without sshd.
@Suite struct DoorRequestTests {
    @Test func noCommandIsTheMenu() {
        #expect(DoorRequest.parse(nil) == .success(.menu))
        #expect(DoorRequest.parse("   ") == .success(.menu))
    }

    @Test func theShortcuts() {
        #expect(DoorRequest.parse("watch friday") == .success(.watch(match: "friday")))
        #expect(DoorRequest.parse("watch") == .success(.watch(match: nil)))
        #expect(DoorRequest.parse("join friday") == .success(.play(DoorGame(opponent: .anyone(match: "friday")))))
        #expect(DoorRequest.parse("join") == .success(.play(DoorGame(opponent: .anyone(match: nil)))))
        #expect(DoorRequest.parse("join --mode ultra") == .success(.play(DoorGame(opponent: .anyone(match: nil), variant: .ultra))))
        #expect(DoorRequest.parse("play --mode ultra") == .success(.play(DoorGame(opponent: .bot(.easy), variant: .ultra))))
        #expect(DoorRequest.parse("play --level hard") == .success(.play(DoorGame(opponent: .bot(.hard)))))
        #expect(DoorRequest.parse("play --solo --mode junior") == .success(.play(DoorGame(opponent: .nobody, variant: .junior))))
    }

    /// Anything else gets the usage line: there is no shell behind the door to reach.
    @Test(arguments: ["bash", "sh -c id", "/bin/sh", "scp -t /tmp", "internal-sftp", "watch a b", "watch ../etc",
                      "join friday; bash", "join $(id)", "play --mode chess", "play --level instant", "play --shell",
                      "play --mode", "join --solo", "rsync --server ."])
    func anythingElseIsRefused(_ command: String) throws {
        let error = try #require(throws: DoorUsageError.self) { try DoorRequest.parse(command).get() }
        #expect(error.line.hasSuffix(DoorRequest.usage))
        #expect(!error.line.contains("\n"))
    }

    /// `ssh-keygen -lf` (OpenSSH 9.2) on this very key printed
    /// `256 SHA256:2JrayI8q1lIJ9K6sVsLruHHkcwc3+nnr+iG9noAwsbI no comment (ED25519)`.
    @Test func theFingerprintIsWhatSshKeygenPrints() {
        let info = "publickey ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAINHL1LSkGPblqSwD6XT8OKAkaHXyIL3C5siu+vGK3hBb\n"
        #expect(DoorIdentity.fingerprint(authInfo: info) == "SHA256:2JrayI8q1lIJ9K6sVsLruHHkcwc3+nnr+iG9noAwsbI")
        #expect(DoorIdentity.fingerprint(authInfo: "password\n") == nil)
        #expect(DoorIdentity.fingerprint(authInfo: "") == nil)
    }

    @Test func theAddressIsTheFirstFieldOfSshConnection() {
        #expect(DoorIdentity.address(sshConnection: "203.0.113.5 51234 192.0.2.1 2222") == "203.0.113.5")
        #expect(DoorIdentity.address(sshConnection: "2001:db8::7 51234 2001:db8::1 2222") == "2001:db8::7")
        #expect(DoorIdentity.address(sshConnection: nil) == nil)
        #expect(DoorIdentity.address(sshConnection: "evil\nline 1 2 3") == nil)
    }

    @Test func aKeysNameIsTheSameEachTime() {
        let name = DoorIdentity.name(fingerprint: "SHA256:uNiVztksCsDhcc0u9e8BujQXVUpKZIDTMczCvj3tD2s")
        #expect(name == "key-uNiVzt")
    }

    @Test func theDoorCommandTakesItsOptions() throws {
        guard case .door(let options) = try Commands.parse(["door", "--socket", "/run/x.sock", "--guest-user", "visitor"]) else {
            Issue.record("not a door command")
            return
        }
        #expect(options.socket == "/run/x.sock")
        #expect(options.guestUser == "visitor")
    }

    @Test func serveTakesADoorSocketAndItsUsers() throws {
        guard case .serve(let command) = try Commands.parse(["serve", "--door-socket", "/run/d.sock", "--door-user", "root,0"]) else {
            Issue.record("not a serve command")
            return
        }
        #expect(command.config.doorSocket == "/run/d.sock")
        #expect(command.config.doorUIDs == [0])
        #expect(throws: UsageError.self) { try Commands.parse(["serve", "--door-user", "root"]) }
        #expect(throws: UsageError.self) {
            try Commands.parse(["serve", "--door-socket", "/x", "--door-user", "no-such-user-here"])
        }
    }
}

/// The door's house bots are accounts: one key per level, kept in the door's state folder.
@Suite struct DoorHouseBotTests {
    @Test func eachLevelKeepsOneAccountKeyForEveryKey() throws {
        let base = NSTemporaryDirectory() + "door-bots-\(UInt32.random(in: 0...UInt32.max))"
        try FileManager.default.createDirectory(atPath: base, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: base) }
        let hard = try #require(Door.houseBotAccount("bot-hard", in: base))
        #expect(Door.houseBotAccount("bot-hard", in: base) == hard, "the next session's bot is the same account")
        let easy = try #require(Door.houseBotAccount("bot-easy", in: base))
        #expect(easy != hard)
    }

    @Test func withoutAWritableStateFolderTheBotIsAGuest() {
        #expect(Door.houseBotAccount("bot-hard", in: "/nonexistent/setgame-door") == nil)
    }
}
