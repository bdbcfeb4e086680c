import SetReplay

/// `setgame replay FILE`: see `ReplayCommand`.
func replay(_ options: ReplayOptions) -> Int32 {
    ReplayCommand.run(options, out: writeOut, err: printError)
}
