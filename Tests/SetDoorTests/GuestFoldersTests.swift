import Foundation
@testable import SetDoor
import Testing

/// A guest's folder outlives a door killed by SIGHUP; the next guest session clears it.
@Suite struct GuestFoldersTests {
    @Test func foldersOfProcessesThatAreGoneAreSweptAndOnlyThey() throws {
        let parent = NSTemporaryDirectory() + "setgame-guest-folders-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: parent, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: parent) }
        let gone = GuestFolders.path(in: parent, pid: 41), running = GuestFolders.path(in: parent + "/", pid: 42)
        for folder in [gone, running, parent + "/setgame-guest-notapid", parent + "/someone-else-41"] {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            try Data("log".utf8).write(to: URL(fileURLWithPath: folder + "/door.log"))
        }
        let removed = GuestFolders.sweep(in: parent) { $0 == 42 }
        #expect(removed == [String(gone.split(separator: "/").last!)])
        let left = try FileManager.default.contentsOfDirectory(atPath: parent).sorted()
        #expect(left == ["setgame-guest-notapid", String(running.split(separator: "/").last!), "someone-else-41"].sorted())
    }

    @Test func thisProcessIsRunningAndAnUnusedPidIsNot() {
        #expect(GuestFolders.isRunning(getpid()))
        #expect(!GuestFolders.isRunning(Int32.max))
    }
}
