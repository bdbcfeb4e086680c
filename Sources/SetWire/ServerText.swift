/// Text from elsewhere (the server, another player, a journal) made safe to print on a terminal:
/// nothing it contains can move the cursor, recolour or clear the screen, set the window title
/// (OSC 2), write the clipboard (OSC 52) or reorder what is shown around it. The client, the bot,
/// `replay` and the server's journal checks all print such text through this one function.
package enum ServerText {
    /// `text` with every C0 and C1 control, DEL, and bidirectional override or isolate removed;
    /// tabs and line breaks become spaces so a message stays on its line. Longer than `limit`
    /// characters, it is cut and ends in "…".
    package static func printable(_ text: some StringProtocol, limit: Int = .max) -> String {
        var result = String.UnicodeScalarView()
        var count = 0
        for scalar in text.unicodeScalars {
            guard count < limit else {
                result.append("…")
                break
            }
            if scalar == "\t" || scalar == "\n" || scalar == "\r" {
                result.append(" ")
            } else if isAllowed(scalar) {
                result.append(scalar)
            } else {
                continue
            }
            count += 1
        }
        return String(result)
    }

    /// Whether a scalar may reach the terminal.
    package static func isAllowed(_ scalar: Unicode.Scalar) -> Bool {
        let value = scalar.value
        if value < 0x20 || (0x7F...0x9F).contains(value) { return false }
        // Bidirectional controls make text show in another order than it is read.
        if (0x202A...0x202E).contains(value) || (0x2066...0x2069).contains(value) { return false }
        if value == 0x200E || value == 0x200F || value == 0x061C { return false }
        return true
    }
}
