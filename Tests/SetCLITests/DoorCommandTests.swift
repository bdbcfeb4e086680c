import SetCLI
import SetDoor
import Testing

/// The `door` command's options, and `serve`'s options for the door socket, as the command line
/// parses them (the door's own requests are SetDoorTests' concern).
@Suite struct DoorCommandTests {
    @Test func theDoorCommandTakesItsOptions() throws {
        guard case .door(let options) = try Commands.parse(["door", "--socket", "/run/x.sock", "--guest-user", "visitor"]) else {
            Issue.record("not a door command")
            return
        }
        #expect(options.socket == "/run/x.sock")
        #expect(options.guestUser == "visitor")
    }

    @Test func theDoorTakesItsAddress() throws {
        guard case .door(let options) = try Commands.parse(["door", "--address", "play.example.org:2222"]) else {
            Issue.record("not a door command")
            return
        }
        #expect(options.address == "play.example.org:2222")
        #expect(throws: UsageError.self) { try Commands.parse(["door", "--address", "a b:c"]) }
    }

    @Test func serveTakesADoorSocketAndItsUsers() throws {
        guard case .serve(let command) = try Commands.parse(["serve", "--door-socket", "/run/d.sock", "--door-user", "root,0"]) else {
            Issue.record("not a serve command")
            return
        }
        #expect(command.config.door.socket == "/run/d.sock")
        #expect(command.config.door.uids == [0])
        #expect(throws: UsageError.self) { try Commands.parse(["serve", "--door-user", "root"]) }
        #expect(throws: UsageError.self) {
            try Commands.parse(["serve", "--door-socket", "/x", "--door-user", "no-such-user-here"])
        }
    }
}
