/// Logs whose syncs are asked for in one go (`DurableLog.syncSoon(with:)`): the once-a-second
/// sweep over a thousand journals asks with one lock and queues at most one block, where each
/// journal asking alone woke the sync queue's thread at the first ask, and that thread took the
/// loop's core while the loop was still asking for the rest.
package struct SyncTogether {
    private(set) var files: [Int32] = []

    package init() {}

    mutating func add(_ fd: Int32) { files.append(fd) }

    /// How many logs were added.
    package var count: Int { files.count }

    /// Asks for every log added to be synced, on the background queue; the caller does not wait.
    package func ask() { DurableLog.syncs.ask(files) }
}
