import CLinux

/// The allocator's free memory, given back to the system.
package enum FreeMemory {
    /// Returns free pages to the system, also those between live allocations (`malloc_trim`):
    /// a start that reads a large file frees many buffers among the ones it keeps, and glibc
    /// would otherwise keep them all as the process's own for the rest of its life.
    package static func release() { _ = setgame_release_free_memory() }
}
