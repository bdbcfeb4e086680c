/// `setgame replay`: what to replay, how fast, and whether as a cast. Here rather than in SetCLI
/// so the command line depends on the replay, not the replay on the command line.
package struct ReplayOptions: Equatable, Sendable {
    package var file: String
    /// 0 prints at once; 1 replays in real time; 10, ten times as fast.
    package var speed: Double = 0
    /// Write an asciinema recording of what a spectator saw to this file instead of printing.
    package var cast: String?

    package init(file: String, speed: Double = 0, cast: String? = nil) {
        self.file = file
        self.speed = speed
        self.cast = cast
    }
}
