/// A score as the screen writes it: below zero with the minus sign the penalties use ("−10"),
/// so a notice's "−10" and the score it left ("−10") read alike, as the replay's do.
extension Int {
    var scoreText: String { self < 0 ? "−\(-self)" : "\(self)" }
}
