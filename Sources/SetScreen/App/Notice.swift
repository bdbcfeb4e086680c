import SetRules
import SetWire

/// A short message about what just happened ("bob took a set: +24"), shown for a few seconds.
struct Notice: Hashable, Sendable {
    /// Whether the news is good, bad or neither, for its colour.
    enum Tone: Hashable, Sendable {
        case good, bad, info
    }

    var text: String
    var tone: Tone
    /// Local time after which it is no longer shown.
    var until: Int64
    /// The window the news is about ("bob holds the window"): shown only while it is open.
    var window: Window?
    /// What the news is about ("bob's presence"): newer news of it replaces this, so "bob left ·
    /// bob is back" never stand side by side.
    var topic: String?

    init(_ text: String, tone: Tone = .info, until: Int64, window: Window? = nil, topic: String? = nil) {
        self.text = text
        self.tone = tone
        self.until = until
        self.window = window
        self.topic = topic
    }

    /// How long a notice stays up.
    static let lifetime: Int64 = 4_000
}

extension Notice {
    /// Fits the status row: the main text on the left, the newest notices on the right. Notices
    /// that matter are never cut where they can fit: when they do not fit beside the main text, a
    /// countdown keeps only its time and bar, then other main text gives way for the notice's few
    /// seconds, and only then does the older of two notices go. Only a notice wider than the whole
    /// row is cut.
    /// `who` names the window's holder for the short countdown ("you", "bob").
    static func fitStatusRow(main: [Span], notice: [Span], width: Int, who: String? = nil)
        -> (main: [Span], notice: [Span], noticeColumn: Int) {
        guard !notice.isEmpty else { return (main.width > width ? truncated(main, width: width) : main, [], width) }
        // A window's countdown ends with its time and a bar of █ and ░: those two are what matter.
        var countdown: [Span]? = nil
        if main.count >= 3, let bar = main.last, !bar.text.isEmpty, bar.text.allSatisfy({ $0 == "█" || $0 == "░" }) {
            countdown = [Span(" ")] + (who.map { [Span($0, main[main.count - 3].style)] } ?? []) + main.suffix(2)
        }
        let newest = notice.count == 3 ? [notice[2]] : notice
        var candidates: [([Span], [Span])] = [(main, notice)]
        if let countdown { candidates += [(countdown, notice), (countdown, newest)] }
        candidates += [([], notice), (main, newest), ([], newest)]
        for (left, right) in candidates where left.width + (left.isEmpty ? 1 : 3) + right.width <= width - 1 {
            return (left, right, left.isEmpty ? 1 : width - 1 - right.width)
        }
        var cut = newest
        if cut.width > width {
            cut = [Span(DisplayWidth.prefix(cut.map(\.text).joined(), cells: max(0, width - 1)) + "…", cut.last!.style)]
        }
        return ([], cut, cut.width >= width - 1 ? 0 : 1)
    }

    /// `spans` cut to `width` cells, the last of them an ellipsis: a line cut short says so ("each
    /// feature all a" read as the end of the line).
    static func truncated(_ spans: [Span], width: Int) -> [Span] {
        guard width > 0 else { return [] }
        var kept: [Span] = [], left = width - 1
        for span in spans {
            let cells = span.text.displayWidth
            if cells <= left {
                kept.append(span)
                left -= cells
                continue
            }
            let piece = DisplayWidth.prefix(span.text, cells: left)
            if !piece.isEmpty { kept.append(Span(String(piece), span.style)) }
            break
        }
        return kept + [Span("…", kept.last?.style ?? .plain)]
    }

    /// Splits text into lines of at most `width` cells of display width at spaces; a word longer
    /// than a line is cut into pieces.
    static func wrap(_ text: String, width: Int) -> [String] {
        let width = max(1, width)
        var lines: [String] = []
        var line = ""
        for word in text.split(separator: " ") {
            var word = Substring(word)
            while word.displayWidth > width {
                if !line.isEmpty { lines.append(line); line = "" }
                // At least one character, so a wide one on a one-cell line cannot loop forever.
                let piece = DisplayWidth.prefix(word, cells: width)
                let taken = max(1, piece.count)
                lines.append(String(word.prefix(taken)))
                word = word.dropFirst(taken)
            }
            if line.isEmpty {
                line = String(word)
            } else if line.displayWidth + 1 + word.displayWidth <= width {
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
