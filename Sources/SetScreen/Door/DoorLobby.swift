import SetRules
import SetWire

/// The door's lobby: who waits for an opponent and what is being played, with ratings and
/// variants, from the server's match list. Pure: listings in, lines of at most 80 columns out.
package enum DoorLobby {
    /// The lobby's lines; `door` is the door's ssh command, for the way to take an open seat.
    package static func lines(_ listings: [MatchListing], door: String?) -> [String] {
        let open = listings.filter { $0.mode == .duel && $0.phase == .waiting && $0.players.count < 2 }
        let live = listings.filter { $0.phase == .playing && $0.mode == .duel }
        var lines = ["Open seats: a duel waiting for its second player"]
        if open.isEmpty {
            lines.append("  nobody is waiting: Quick duel (1) waits for the next comer")
        } else {
            lines += open.map { "  " + $0.name.padding(toLength: 14) + " " + players($0) + variant($0) }
            if let door { lines.append("  take one: Quick duel (1), or \(door) join MATCH") }
        }
        lines += ["", "Live duels"]
        lines += live.isEmpty ? ["  none just now"]
            : live.map { "  " + $0.name.padding(toLength: 14) + " " + players($0) + variant($0) + ($0.spectators > 0 ? "  \($0.spectators) watching" : "") }
        return lines.map { $0.displayWidth > 80 ? DisplayWidth.prefix($0, cells: 79) + "…" : $0 }
    }

    /// "ann 1623? 30 vs bob 1500? 12": each player's rating where they have one, then the score.
    static func players(_ listing: MatchListing) -> String {
        listing.players.map { player in
            player.name + (player.rating.map { " \($0)\(player.provisional ? "?" : "")" } ?? "")
                + (listing.phase == .waiting ? "" : " \(player.score)")
        }.joined(separator: " vs ")
    }

    private static func variant(_ listing: MatchListing) -> String {
        listing.variant == .classic ? "" : "  " + listing.variant.title
    }
}
