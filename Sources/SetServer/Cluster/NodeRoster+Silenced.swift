import SetDatabase

// `setgame nodes silence|unsilence|silenced`: the service's silenced list (`SilencedStore`),
// written straight to the store; every node reads it within `SilencedStore.pollMs`.
extension NodeRoster {
    /// Silences (or, `silencing` false, lifts the silence of) one entry (`address 203.0.113.9`,
    /// `ssh SHA256:…`, `account HEX`); false when it was already so.
    package func silence(_ text: String, _ silencing: Bool) throws(NodeRosterError) -> Bool {
        guard let entry = SilencedStore.entry(text) else {
            throw NodeRosterError(.badEntry, "'\(text)' is not \"address|ssh|account VALUE\"")
        }
        return try store { () throws(DatabaseError) in try SilencedStore.change([entry], adding: silencing, in: database) == 1 }
    }

    /// Every entry of the service's silenced list.
    package func silenced() throws(NodeRosterError) -> [String] {
        try store { () throws(DatabaseError) in try SilencedStore.entries(in: database) }
    }
}
