/// Text from elsewhere (the server, another player, the network) made safe to print: no control
/// characters, so nothing it contains can move the cursor, set the window title (OSC 2), write the
/// clipboard (OSC 52) or reorder what is shown around it.
public enum TerminalText {
    /// `text` with every C0 and C1 control, DEL, and bidirectional override or isolate removed;
    /// tabs and line breaks become spaces so a message stays on its line.
    public static func sanitized(_ text: some StringProtocol) -> String {
        var result = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            if scalar == "\t" || scalar == "\n" || scalar == "\r" {
                result.append(" ")
            } else if isAllowed(scalar) {
                result.append(scalar)
            }
        }
        return String(result)
    }

    /// Whether a scalar may reach the terminal.
    static func isAllowed(_ scalar: Unicode.Scalar) -> Bool {
        let value = scalar.value
        if value < 0x20 || (0x7F...0x9F).contains(value) { return false }
        // Bidirectional controls make text show in another order than it is read.
        if (0x202A...0x202E).contains(value) || (0x2066...0x2069).contains(value) { return false }
        if value == 0x200E || value == 0x200F || value == 0x061C { return false }
        return true
    }
}
