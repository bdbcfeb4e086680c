import Foundation

/// A new folder of its own under the system's temporary folder, named `prefix-UUID`, for a test's
/// data: no two tests, nor two runs, share one.
package func temporaryFolder(_ prefix: String) -> String {
    let path = NSTemporaryDirectory() + "\(prefix)-\(UUID().uuidString)"
    try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    return path
}
