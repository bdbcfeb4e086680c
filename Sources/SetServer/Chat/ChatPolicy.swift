/// Who may talk on a server (`setgame serve --chat on|players|off`).
package enum ChatMode: String, CaseIterable, Sendable {
    /// Players in their room, spectators in theirs.
    case on
    /// Players only: spectators read the players' room but cannot write.
    case players
    /// Nobody: chat requests are refused and nothing is journaled.
    case off
}

/// How a server's chat is limited.
package struct ChatPolicy: Sendable, Equatable {
    package var mode = ChatMode.on
    /// Lines one person (an account, an ssh key, or a guest's address) may say per `windowMs`.
    package var linesPerWindow = 5
    package var windowMs: Int64 = 10_000
    /// The file of silenced accounts and addresses, read again whenever it changes; nil: the
    /// data folder's `silenced`, or none without a data folder.
    package var silencedFile: String?
    /// How that file is read; nil: from disk. Tests put in one they can hold back.
    package var silencedReader: SilencedFileReader?

    package init(mode: ChatMode = .on) { self.mode = mode }
}
