/// A short message about what just happened ("bob took a set: +24"), shown for a few seconds.
public struct Notice: Hashable, Sendable {
    /// Whether the news is good, bad or neither, for its colour.
    public enum Tone: Hashable, Sendable {
        case good, bad, info
    }

    public var text: String
    public var tone: Tone
    /// Local time after which it is no longer shown.
    public var until: Int64

    public init(_ text: String, tone: Tone = .info, until: Int64) {
        self.text = text
        self.tone = tone
        self.until = until
    }

    /// How long a notice stays up.
    public static let lifetime: Int64 = 4_000
}
