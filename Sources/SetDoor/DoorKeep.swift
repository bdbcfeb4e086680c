import Foundation

/// What the door keeps for one key between sessions, in the key's own folder: the name it chose
/// and the game it left unfinished (as the door command that asks for it again). Small files,
/// written whole and renamed into place; a missing or unreadable one is as if nothing was kept.
package struct DoorKeep {
    package let folder: String

    package init(folder: String) { self.folder = folder }

    /// The name this key plays under; nil keeps the one made from its fingerprint.
    package var name: String? {
        get { read("name") }
        nonmutating set { write("name", newValue) }
    }

    /// The game this key was last seated in and has not finished: plain `ssh` offers it first.
    package var game: DoorGame? {
        get {
            guard let words = read("game"), case .success(.play(let game)) = DoorRequest.parse(words) else { return nil }
            return game
        }
        nonmutating set { write("game", newValue?.command) }
    }

    private func read(_ file: String) -> String? {
        guard let text = try? String(contentsOfFile: folder + "/" + file, encoding: .utf8) else { return nil }
        let line = text.trimmingCharacters(in: .newlines)
        return line.isEmpty ? nil : line
    }

    private func write(_ file: String, _ text: String?) {
        let path = folder + "/" + file
        guard let text else {
            try? FileManager.default.removeItem(atPath: path)
            return
        }
        // Made 0600 before it holds anything, then renamed into place: what a key keeps is its
        // own, as everything else in the door's state folder is (`Data.write` would follow the umask).
        let temporary = path + ".new"
        try? FileManager.default.removeItem(atPath: temporary)
        guard FileManager.default.createFile(atPath: temporary, contents: Data((text + "\n").utf8),
                                             attributes: [.posixPermissions: 0o600]) else { return }
        if rename(temporary, path) != 0 { try? FileManager.default.removeItem(atPath: temporary) }
    }
}
