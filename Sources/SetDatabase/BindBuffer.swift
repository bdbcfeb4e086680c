import Glibc

/// One block of memory a SQLite connection copies the texts it binds into, grown as a statement
/// needs and kept for the next (`SQLiteDatabase.bind`): the bound bytes live in memory the
/// connection owns, so SQLite needs no copy of its own, and the connection frees it at its close.
struct BindBuffer {
    private var start: UnsafeMutableRawPointer?
    private(set) var capacity = 0

    /// The block, at least `bytes` long (never less than 1, so an empty text is bound from a real
    /// address), nil when memory is short; what it held before is not kept.
    mutating func reserve(_ bytes: Int) -> UnsafeMutableRawPointer? {
        if let start, capacity >= max(bytes, 1) { return start }
        let size = max(bytes, 1, capacity * 2)
        free()
        guard let block = Glibc.malloc(size) else { return nil }
        (start, capacity) = (block, size)
        return block
    }

    /// Gives the block back; the next `reserve` takes a new one.
    mutating func free() {
        Glibc.free(start)
        (start, capacity) = (nil, 0)
    }
}
