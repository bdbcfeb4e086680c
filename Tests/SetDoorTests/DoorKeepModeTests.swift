import Foundation
import Glibc
import SetDoor
import SetRules
import Testing

/// Issue 45, item 12: what the door keeps for a key is readable by its owner alone.
@Suite struct DoorKeepModeTests {
    /// Under the usual umask (022, which `Data.write` follows) a key's `name` and `game` files,
    /// written anew or over an older one, are 0600 like everything else in the state folder.
    @Test func aKeysFilesAreItsOwnerAlone() throws {
        let folder = NSTemporaryDirectory() + "door-keep-mode-\(UInt32.random(in: 0...UInt32.max))"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let old = umask(0o022)
        defer { umask(old) }
        let keep = DoorKeep(folder: folder)
        keep.name = "ann"
        keep.game = DoorGame(opponent: .bot(.normal), variant: .ultra)
        keep.game = DoorGame(opponent: .anyone(match: "friday"))
        for file in ["name", "game"] {
            let mode = try FileManager.default.attributesOfItem(atPath: folder + "/" + file)[.posixPermissions] as? Int
            #expect(mode == 0o600, "\(file) is \(String(mode ?? -1, radix: 8))")
        }
        #expect(DoorKeep(folder: folder).game == DoorGame(opponent: .anyone(match: "friday")))
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder).sorted() == ["game", "name"])
    }
}
