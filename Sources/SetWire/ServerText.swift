/// Text a server sent, made safe to print on a terminal: a hostile server must not be able to
/// move the cursor, recolour or clear the screen, or reorder what follows.
public enum ServerText {
    /// `text` with every control, format and line-separating character replaced by "?", cut to
    /// `limit` characters.
    public static func printable(_ text: String, limit: Int = 300) -> String {
        var result = String.UnicodeScalarView()
        var count = 0
        for scalar in text.unicodeScalars {
            guard count < limit else {
                result.append("…")
                break
            }
            switch scalar.properties.generalCategory {
            case .control, .format, .lineSeparator, .paragraphSeparator, .surrogate, .privateUse, .unassigned:
                result.append("?")
            default:
                result.append(scalar)
            }
            count += 1
        }
        return String(result)
    }
}
