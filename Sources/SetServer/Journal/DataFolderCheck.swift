import Foundation
import Glibc
import SetNet

/// Why the `--data` folder cannot hold journals, in a sentence.
struct DataFolderProblem: Error, CustomStringConvertible {
    var reason: String
    var description: String { reason }
}

extension JournalDirectory {
    /// Creates the folder and its `finished/` and `damaged/` subfolders if needed and checks each
    /// can be written, and by this user alone (`PrivateFolder`), saying which one is the problem and why.
    func prepareChecked() throws(DataFolderProblem) {
        for folder in [path, finishedPath, damagedPath, accountsPath] {
            var isFolder: ObjCBool = false
            if FileManager.default.fileExists(atPath: folder, isDirectory: &isFolder) {
                guard isFolder.boolValue else { throw DataFolderProblem(reason: "\(folder) is a file, not a folder") }
            } else {
                do {
                    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true,
                                                            attributes: [.posixPermissions: 0o700])
                } catch {
                    throw DataFolderProblem(reason: "cannot create \(folder): \(Self.why(folder))")
                }
            }
            guard access(folder, W_OK | X_OK) == 0 else {
                throw DataFolderProblem(reason: "cannot write in \(folder): \(String(cString: strerror(errno)))")
            }
            // Checked once it exists: a folder someone else made first is theirs, whoever asked.
            if folder == path, let problem = PrivateFolder.holderProblem(folder) { throw DataFolderProblem(reason: problem) }
            if let problem = PrivateFolder.problem(folder) { throw DataFolderProblem(reason: problem) }
        }
    }

    /// The first thing on the way to `folder` that stops it being created: a folder on the way
    /// that cannot be gone through (a 0700 parent of another user's), or the last one there is,
    /// where the rest would be made, not writable.
    private static func why(_ folder: String) -> String {
        var deepest = folder.hasPrefix("/") ? "/" : "."
        var current = folder.hasPrefix("/") ? "" : "."
        for part in folder.split(separator: "/").dropLast() {
            current += "/" + part
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: current, isDirectory: &isFolder) else { break }
            if !isFolder.boolValue { return "\(current) is a file, not a folder" }
            if access(current, X_OK) != 0 { return "\(current) cannot be gone through (\(String(cString: strerror(errno))))" }
            deepest = current
        }
        if access(deepest, W_OK) != 0 { return "\(deepest) is not writable (\(String(cString: strerror(errno))))" }
        return "the system refused"
    }
}

extension Server {
    /// What a server starting on `path` would set aside rather than trust, a sentence each; for
    /// `serve --check`, which reads and changes nothing. Journals are left to the start itself.
    package static func dataDirectoryNotes(_ path: String) -> [String] {
        guard let problem = ServerState.problem(inFolder: path) else {
            return ServerState.emptyNote(path + "/server-state.json").map { [$0] } ?? []
        }
        return ["\(path)/server-state.json \(problem): serve will set it aside in damaged/ and start its clock above the journals' times"]
    }
}
