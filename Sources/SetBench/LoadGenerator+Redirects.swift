import SetNet
import SetWire

// `redirect`, answering a join for a match another server holds (issue 35): the bench follows it
// as every client does, to the server it names, with the same join.
extension LoadGenerator {
    /// A join answered `redirect`: its match lives on the server the line names. The match moves
    /// there (its spectators, who join later, go there at once); this connection is closed and a
    /// new one sends the same join again; one that cannot be followed stops the load as a refusal.
    private func follow(redirect line: [UInt8], of match: BenchMatch, reconnect: (LineSocket) -> Void) {
        guard let text = FastFields(line).text("address"), let address = ServerAddress(redirectAddress: text) else {
            return refused("a redirect without an address one can connect to: \(String(decoding: line, as: UTF8.self))")
        }
        if let known = homes.firstIndex(of: address) {
            match.server = known
        } else {
            homes.append(address)
            tallies.append(LoadTally())
            match.server = homes.count - 1
        }
        tallies[match.server].redirects += 1
        do { reconnect(try connect(to: match)) } catch {
            refused("cannot follow the redirect to \(address.label): \(error)")
        }
    }

    func redirectPlayer(_ index: Int, _ line: [UInt8]) {
        let player = players[index]
        guard player.redirects < Self.redirectLimit else {
            return refused("redirected \(Self.redirectLimit) times in a row: \(String(decoding: line, as: UTF8.self))")
        }
        let old = player.connection
        old.onClose = { _ in }
        old.close("redirected")
        follow(redirect: line, of: player.match) { connection in
            let join = player.redirected(to: connection)
            do { try serve(connection, of: player.match) { [unowned self] line in self.playerLine(index, line) } } catch {
                return refused("\(error)")
            }
            for message in join { send(message, on: connection) }
        }
    }

    func redirectSpectator(_ index: Int, _ line: [UInt8]) {
        let (match, old, _) = spectators[index]
        old.onClose = { _ in }
        old.close("redirected")
        follow(redirect: line, of: match) { connection in
            spectators[index].connection = connection
            do { try serve(connection, of: match) { [unowned self] line in self.spectatorLine(index, line) } } catch {
                return refused("\(error)")
            }
            send(.join(JoinRequest(role: .spectator, name: "s\(index)", match: match.name)), on: connection)
        }
    }
}
