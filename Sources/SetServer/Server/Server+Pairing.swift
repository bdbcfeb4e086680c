import SetDatabase
import SetRules
import SetWire

// Pairing players who name no match across nodes (Protocol.md "Several servers (nodes)"). A
// player this node cannot pair at once with a duel waiting here is paired by the store, in one
// transaction (`NodeDirectory.pair`): sent to the oldest duel of their variant waiting on a live
// node, or made to wait in a new duel here whose row is written before they are told they wait.
// A row goes when its duel fills or empties (`settleWaitingRows`, the next turn of the loop). A
// player who reaches a duel that filled or emptied meanwhile is paired afresh, as if unnamed.
extension Server {
    /// The join to pair through the store, when `join` must be: a player's duel join with no
    /// token, naming no match while no duel waits here for them, or naming a duel this node made
    /// for pairing that cannot seat them now (filled, or gone). Nil: go on as asked.
    func pairingJoin(_ join: JoinRequest) -> JoinRequest? {
        guard let nodes, join.role == .player, join.mode == .duel, join.token == nil, join.ticket == nil else { return nil }
        guard let name = join.match else { return lobby.hasOpenDuel(join.variant ?? .classic) ? nil : join }
        guard lobby.isPairingName(name) else { return nil }
        switch lobby.pairingState(of: name) {
        case .open: return nil
        case .absent where nodes.waitingRows.isUnmade(name): return nil  // the store sent them to make it
        case .absent, .closed:
            var unnamed = join
            unnamed.match = nil
            return unnamed
        }
    }

    /// Takes out of the store the rows of this node's duels that filled or emptied, and of those
    /// decided that nobody made: nobody is sent to them.
    func settleWaitingRows() {
        guard let nodes, !nodes.waitingRows.rows.isEmpty else { return }
        let gone = nodes.waitingRows.settle(state: lobby.pairingState(of:)) { [unowned self] id in
            guard let connection = connections[id], case .admitting = connection.session else { return false }
            return true
        }
        if !gone.isEmpty { nodes.forgetWaiting(gone) }
    }
}

extension NodeEdge {
    /// Deletes this node's rows for `matches` off the loop; a row left by a failure is deleted by
    /// this node's next pairing decision, which keeps only the rows of duels still waiting.
    func forgetWaiting(_ matches: [String]) {
        ask({ directory throws(DatabaseError) in try directory.forgetWaiting(matches) }) { _ in }
    }

    /// The refusal for a new match of any kind on a drained node that has no other node to send
    /// its player to: `server_full`, for this node takes no new matches until it is resumed.
    var drainedRefusal: WireError {
        WireError(.serverFull, "This server (\(me.name)) is being drained: it makes no new matches; try another server.",
                  details: ["node": .string(me.name)])
    }

    /// The refusal for a player this node cannot pair now: its store did not answer, or its
    /// lease lapsed. `node_away` naming this node, retried after its renewal period.
    var cannotPair: WireError {
        let retryAfterMs = max(1_000, settings.renewEveryMs)
        return WireError(.nodeAway, "This server (\(me.name)) cannot reach the store that pairs players right now; try again in \((retryAfterMs + 999) / 1000) s.",
                         details: ["node": .string(me.name), "retryAfterMs": .int(retryAfterMs)])
    }
}
