import Glibc
import Synchronization

extension DurableLog {
    /// Why an open or an append failed: which step, of which file, and the system call's error.
    /// (The error is a `SystemCallError` for now, which names any failed system call.)
    package struct Failure: Error, CustomStringConvertible, Sendable {
        /// The step that failed, a closed set that tests assert.
        package enum Step: String, Sendable {
            case open = "opening", create = "creating", cutBack = "cutting back", write = "writing", sync = "syncing"
        }

        package var step: Step
        package var path: String
        package var error: SystemCallError

        package init(_ step: Step, _ path: String, _ error: SystemCallError) {
            self.step = step
            self.path = path
            self.error = error
        }

        package var description: String { "\(step.rawValue) \(path) failed: \(error)" }

        /// The same failure as a `SystemCallError` naming the step and the file, for callers that throw those.
        package var systemCallError: SystemCallError { SystemCallError("\(step.rawValue) \(path)", code: error.code, reason: error.reason) }
    }

    /// A disk that tests fill: `failing` makes every append fail as a full disk would, before a
    /// byte is written; `roomLeft` lets appends write that many bytes more, all told, so the one
    /// that needs more stops part way, as a real disk filling up does. Tests inject it to check
    /// that nothing unwritten is acted on, and that the server goes on once writes work again.
    package final class Faults: Sendable, Equatable {
        private struct Disk {
            var failing = false
            var roomLeft: Int?
            var cutBackFailing = false
            var appends = 0
        }

        private let state = Mutex(Disk())
        package init() {}

        /// The same switch: a copy of a config shares its switch with the original, another does not.
        package static func == (lhs: Faults, rhs: Faults) -> Bool { lhs === rhs }

        /// Whether appends fail now.
        package var failing: Bool {
            get { state.withLock { $0.failing } }
            set { state.withLock { $0.failing = newValue } }
        }

        /// Bytes appends may still write, all told; nil: as many as the disk takes.
        package var roomLeft: Int? {
            get { state.withLock { $0.roomLeft } }
            set { state.withLock { $0.roomLeft = newValue } }
        }

        /// Whether cutting a failed append back fails now (as a file system gone read-only would).
        package var cutBackFailing: Bool {
            get { state.withLock { $0.cutBackFailing } }
            set { state.withLock { $0.cutBackFailing = newValue } }
        }

        /// How many appends were asked of the disk so far, failed ones included: what a batch of
        /// records written together saves is seen here.
        package var appends: Int { state.withLock { $0.appends } }

        /// How many of `count` bytes an append may write now (the room left is used up by them).
        func allow(_ count: Int) -> Int {
            state.withLock { disk in
                disk.appends += 1
                guard !disk.failing else { return 0 }
                guard let room = disk.roomLeft else { return count }
                let allowed = min(room, count)
                disk.roomLeft = room - allowed
                return allowed
            }
        }
    }
}
