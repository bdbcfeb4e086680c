/// How a client on the server's own host reaches it through the door's Unix socket instead of
/// TCP: the socket's path, and the line that goes first (the door's `door` line).
package struct UnixRoute: Hashable, Sendable {
    package var path: String
    /// Sent before anything else, newline included.
    package var greeting: [UInt8]

    package init(path: String, greeting: [UInt8]) {
        self.path = path
        self.greeting = greeting
    }
}
