import Foundation

/// The process's environment, read once; a parameter wherever a default depends on it, so tests
/// can pass their own.
public enum ProcessEnvironment {
    public static var variables: [String: String] { ProcessInfo.processInfo.environment }
}
