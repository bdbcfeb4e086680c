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

extension Notice {
    /// Fits the status row: the main text on the left, the newest notices on the right. Notices
    /// that matter are never cut where they can fit: when the two do not fit side by side the
    /// older notice goes first, then a countdown keeps only its time and bar, then the main text
    /// gives way for the notice's few seconds. Only a notice wider than the row is cut.
    static func fitStatusRow(main: [Span], notice: [Span], width: Int) -> (main: [Span], notice: [Span], noticeColumn: Int) {
        guard !notice.isEmpty else { return (main, [], width) }
        func fits(_ main: [Span], _ notice: [Span]) -> Bool { main.width + 3 + notice.width <= width - 1 }
        var notice = notice
        if !fits(main, notice), notice.count == 3 { notice = [notice[2]] }
        if fits(main, notice) { return (main, notice, width - 1 - notice.width) }
        // A window's countdown ends with its time and a bar of █ and ░: those two are what matter.
        if main.count >= 3, let bar = main.last, !bar.text.isEmpty, bar.text.allSatisfy({ $0 == "█" || $0 == "░" }) {
            let countdown = [Span(" ")] + main.suffix(2)
            if fits(countdown, notice) { return (countdown, notice, width - 1 - notice.width) }
        }
        if notice.width > width {
            notice = [Span(String(notice.map(\.text).joined().prefix(max(0, width - 1))) + "…", notice.last!.style)]
        }
        return ([], notice, notice.width >= width - 1 ? 0 : 1)
    }

    /// Splits text into lines of at most `width` characters at spaces; a word longer than a line
    /// is cut into pieces.
    public static func wrap(_ text: String, width: Int) -> [String] {
        let width = max(1, width)
        var lines: [String] = []
        var line = ""
        for word in text.split(separator: " ") {
            var word = Substring(word)
            while word.count > width {
                if !line.isEmpty { lines.append(line); line = "" }
                lines.append(String(word.prefix(width)))
                word = word.dropFirst(width)
            }
            if line.isEmpty {
                line = String(word)
            } else if line.count + 1 + word.count <= width {
                line += " " + word
            } else {
                lines.append(line)
                line = String(word)
            }
        }
        if !line.isEmpty { lines.append(line) }
        return lines
    }
}
