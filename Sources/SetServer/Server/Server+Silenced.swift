import Foundation
import SetDatabase
import SetRules

/// Where a node stands with the service's silenced list (`SilencedStore`): the version in force,
/// and when it asks next. Used only on the loop thread.
struct SilencedPoll {
    var version: Int64?
    var asking = false
    var next = Instant.zero
}

// The silenced list of a service of nodes is the store's (issue 42 item 2): a node asks every
// `SilencedStore.pollMs` whether it changed and reads it only when it did (parsed on the node
// worker, off the loop); the `silenced` file a node's data folder held is put in the store once,
// at its first start as a node, and renamed `silenced.imported`. A server without `--node` reads
// its file as before (`ChatGate`).
extension Server {
    /// Asks the store for the list when it is due and not already asked.
    func pollSilenced(at now: Instant) {
        guard let nodes, !chatGate.silencedPoll.asking, now >= chatGate.silencedPoll.next else { return }
        chatGate.silencedPoll.asking = true
        let known = chatGate.silencedPoll.version
        nodes.ask({ directory throws(DatabaseError) in
            try directory.reach()
            return try SilencedStore.read(newerThan: known, in: directory.database)
        }) { [unowned self] result in
            chatGate.silencedPoll.asking = false
            chatGate.silencedPoll.next = clock.now().adding(SilencedStore.pollMs)
            switch result {
            case .failure(let error): logQuietly("silenced-unreachable", "chat: the store's silenced list cannot be read: \(error); the list in force stays")
            case .success(nil): break
            case .success(let read?):
                if read.version != chatGate.silencedPoll.version { log("\(read.list.notes.last ?? "chat: the store's silenced list read") (version \(read.version))") }
                chatGate.silencedPoll.version = read.version
                chatGate.putInForce(read.list)
            }
        }
    }

    /// Puts a node's old `silenced` file into the store's list, once: renamed once it is there.
    func importSilencedFile() {
        guard let nodes, let folder = config.dataDirectory else { return }
        let path = config.chat.silencedFile ?? "\(folder)/silenced"
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return }
        let entries = text.split(separator: "\n").compactMap { line in line.hasPrefix("#") ? nil : SilencedStore.entry(String(line)) }
        nodes.ask({ directory throws(DatabaseError) in
            try directory.reach()
            return try SilencedStore.change(entries, adding: true, in: directory.database)
        }) { [unowned self] result in
            switch result {
            case .failure(let error): log("chat: \(path) could not be put in the store (\(error)); it is tried again at the next start")
            case .success(let added):
                let moved = rename(path, path + ".imported") == 0
                log("chat: \(path) put in the store's silenced list for every node (\(added) new of \(entries.count))"
                    + (moved ? "; renamed \(path).imported: `setgame nodes silence` changes the list now" : "; it could not be renamed"))
                chatGate.silencedPoll.next = .zero
            }
        }
    }
}
