import SetNet

// Setting files aside in `damaged/` (`DamagedFiles`), with a log line that says why and where
// the file really is.
extension JournalDirectory {
    /// The folder's `damaged/`, named with this directory's clock.
    var damaged: DamagedFiles { DamagedFiles(folder: damagedPath, wallSeconds: wallSeconds) }

    /// Moves `file` into `damaged/`; `saying` tells the log what is wrong with it. Returns where it
    /// went, or nil if it could not be moved, which the log then says instead.
    @discardableResult
    func setAside(_ file: String, saying problem: String) -> String? {
        let outcome = damaged.setAside(file)
        log(damaged.note(problem, outcome))
        return outcome.destination
    }
}
