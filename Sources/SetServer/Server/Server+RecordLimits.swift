import SetWire

// The accounts store's allowance at the server's edge: a join that would make or rename an
// account past its address's, network's or account's allowance is refused before anything is
// written (issue 32 item 6).
extension Server {
    /// Why a join may not write `kind` now (nil: it may). Nothing is spent until the record is
    /// written (`spendAllowance`): a join refused for another reason costs nothing.
    func recordRefusal(_ kind: AccountRecordKind, from connection: Connection) -> WireError? {
        guard let waitMs = recordAllowance.allow(kind, from: connection.address, at: clock.now(), spend: false) else { return nil }
        let seconds = (waitMs + 999) / 1_000
        let message = switch kind {
        case .create: "Your address has made as many new accounts as it may for now; try again in \(seconds) s, or play as a guest."
        case .rename: "This account or address has changed names as often as it may for now; join under your current name, or try again in \(seconds) s."
        }
        logQuietly("account-limit", "refused a join from \(connection.address): over its allowance of account records")
        return WireError(.accountLimit, message, details: ["retryAfterMs": .int(waitMs)])
    }

    /// Spends what the record an admitted join wrote costs its address, network or account.
    func spendAllowance(for admission: SeatAdmission, from connection: Connection) {
        let kind: AccountRecordKind
        switch admission {
        case .guest, .existing: return
        case .creating: kind = .create
        case .renaming(let account, _): kind = .rename(account: account.id)
        }
        _ = recordAllowance.allow(kind, from: connection.address, at: clock.now())
    }
}
