import SetClient
import SetWire

// The one-line chat input: while it is open every key edits it, Enter says the line (or mutes
// and unmutes, for a line that begins with /mute or /unmute), ↑ shows the last lines over the
// table and ↓ hides them, Esc hides them, then closes it.
extension ClientApp {
    /// A key or click while the chat line is open.
    mutating func typeChat(_ event: InputEvent, at now: Int64) -> [ClientEffect] {
        guard case .key(let key) = event, var draft = state.chatDraft else { return [] }
        switch key {
        case .ctrl("c"): return perform(.quitNow, at: now)
        case .escape:
            if state.chatHistoryShown { state.chatHistoryShown = false } else { state.chatDraft = nil }
            return []
        case .up:
            state.chatHistoryShown = true
            return []
        case .down:
            state.chatHistoryShown = false
            return []
        case .enter:
            state.chatDraft = nil
            state.chatHistoryShown = false
            return say(draft, at: now)
        case .backspace:
            if !draft.isEmpty { draft.removeLast() }
        case .character(let character):
            // What the server would strip or refuse is never typed: no control or format
            // character (this terminal's width for it is anyone's guess), and the line stops at
            // its widest.
            // Scalar by scalar: a joiner after an emoji joins the draft's last character.
            let line = ServerText.printable(draft + String(character))
            guard line.unicodeScalars.count > draft.unicodeScalars.count, DisplayWidth.of(line) <= ChatText.maxColumns else { return [] }
            draft = line
        default:
            return []
        }
        state.chatDraft = draft
        return []
    }

    /// Says a finished line, or performs a mute written in it.
    private mutating func say(_ draft: String, at now: Int64) -> [ClientEffect] {
        let words = draft.split(separator: " ", omittingEmptySubsequences: true)
        if let command = words.first, command == "/mute" || command == "/unmute" {
            guard words.count == 2, let target = ChatLog.Target(words[1]) else {
                state.note("say /mute NAME, or /mute players or /mute spectators", .bad, at: now)
                return []
            }
            let what = switch target {
            case .room(let room): "the \(room.rawValue)' room"
            case .person(let name): ServerText.printable(name)
            }
            if command == "/mute" {
                state.session.chat.mute(target)
                state.note("muted \(what) on your screen; /unmute to hear again", at: now)
            } else {
                state.session.chat.unmute(target)
                state.note("\(what) shown again", at: now)
            }
            return []
        }
        switch ChatText.said(draft) {
        case .failure(let error):
            // An empty line closes quietly; anything else the server would refuse is said here.
            if !draft.allSatisfy(\.isWhitespace) { state.note(ServerText.printable(error.message), .bad, at: now) }
            return []
        case .success(let line):
            return [.send(state.session.say(line))]
        }
    }
}
