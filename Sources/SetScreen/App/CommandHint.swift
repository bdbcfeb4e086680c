/// A command the screen suggests, and the words that introduce it ("A friend can watch with:").
/// The command starts a line of its own: run in after the words, an 80-column box broke it after
/// "setgame watch", and a reader who copied that line watched nothing.
package struct CommandHint: Hashable, Sendable {
    package var lead: String
    package var command: String

    package init(lead: String, command: String) {
        self.lead = lead
        self.command = command
    }
}
