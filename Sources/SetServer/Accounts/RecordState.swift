/// Where a finished game's accounts record stands: its `game_over` is told only once committed.
enum RecordState {
    /// Not committed yet (a full disk, a lost database): it is tried again.
    case unwritten
    /// Committed; nil: a record the store does not keep (a game of guests alone, which moved no rating).
    case committed(GameRecord?)
}
