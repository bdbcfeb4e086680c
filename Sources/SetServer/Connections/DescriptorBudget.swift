import SetRules

/// How many connections and matches fit in the file descriptors the process may open: each
/// connection holds one, each match's journal one, and the server itself a few.
struct DescriptorBudget: Equatable {
    var maxConnections: Int
    var maxMatches: Int

    /// Descriptors kept for the listener, epoll, its wake-up, the spare, stdio, and the odd file.
    static let reserve = 64

    /// The limits that fit in `descriptors`; unchanged when the configured ones already fit.
    static func fit(maxConnections: Int, maxMatches: Int, journals: Bool, descriptors: Int) -> DescriptorBudget {
        let available = max(2, descriptors - reserve)
        let needed = maxConnections + (journals ? maxMatches : 0)
        guard needed > available else { return DescriptorBudget(maxConnections: maxConnections, maxMatches: maxMatches) }
        guard journals else { return DescriptorBudget(maxConnections: available, maxMatches: maxMatches) }
        // A match needs a connection before it has a journal: give connections two thirds.
        let matches = max(1, min(maxMatches, available / 3))
        return DescriptorBudget(maxConnections: max(1, min(maxConnections, available - matches)), maxMatches: matches)
    }
}
