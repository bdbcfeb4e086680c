import Dispatch
import Foundation
import Synchronization

/// How the text of the `silenced` file is fetched: from disk, unless a test puts in a reader it
/// can hold back, to show that the loop goes on meanwhile.
package final class SilencedFileReader: Sendable, Equatable {
    let read: @Sendable (String) -> String?

    package init(read: @escaping @Sendable (String) -> String?) { self.read = read }

    /// The file's text as UTF-8; nil when it cannot be read as such.
    static let disk = SilencedFileReader { try? String(contentsOfFile: $0, encoding: .utf8) }

    package static func == (left: SilencedFileReader, right: SilencedFileReader) -> Bool { left === right }
}

/// Reads and parses the `silenced` file on a queue of its own, one reading at a time, and leaves
/// the list for the loop, which it wakes to take it (`take`).
final class SilenceReader: Sendable {
    /// What a reading found: a list, or a file that could not be read as text.
    enum Outcome: Sendable {
        case read(SilenceList)
        case unreadable(path: String)
    }

    private let file: SilencedFileReader
    private let queue = DispatchQueue(label: "setgame.silenced")
    private let finished = Mutex<Outcome?>(nil)

    init(file: SilencedFileReader) { self.file = file }

    /// Starts reading `path`; `wake` is called once the outcome waits to be taken.
    func start(_ path: String, wake: @escaping @Sendable () -> Void) {
        queue.async { [self] in
            let outcome = file.read(path).map { Outcome.read(SilenceList(parsing: $0, from: path)) } ?? .unreadable(path: path)
            finished.withLock { $0 = outcome }
            wake()
        }
    }

    /// The outcome of the reading that ended, once; nil while one is under way (or none was).
    func take() -> Outcome? {
        finished.withLock { outcome in
            defer { outcome = nil }
            return outcome
        }
    }
}
