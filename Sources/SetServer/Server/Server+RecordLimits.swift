import SetWire

// The accounts store's allowance at the server's edge: a join that would make or rename an
// account past its address's, network's or account's allowance is refused before anything is
// written (issue 32 item 6). The door's house bots are not charged: their accounts are the door's
// own (four names, each made once), though each bot comes from its player's address, whose
// allowance a classroom of new keys may have spent before anyone's first duel against that bot.
extension Server {
    /// Why a join may not write `kind` now (nil: it may). Nothing is spent until the record is
    /// written (`spendAllowance`): a join refused for another reason costs nothing.
    func recordRefusal(_ kind: AccountRecordKind, from connection: Connection) -> WireError? {
        guard !connection.isHouseBot,
              let waitMs = recordAllowance.allow(kind, from: connection.address, at: clock.now(), spend: false) else { return nil }
        return recordLimitError(kind, from: connection, waitMs: waitMs)
    }

    /// `account_limit` for a record of `kind` that may be written in `waitMs`, said in the log.
    func recordLimitError(_ kind: AccountRecordKind?, from connection: Connection, waitMs: Int64) -> WireError {
        let seconds = (waitMs + 999) / 1_000
        let message = switch kind {
        case .create, nil: "Your address, or its network, has made as many new accounts as it may for now; try again in \(seconds) s, or play as a guest."
        case .rename: "This account or address has changed names as often as it may for now; join under your current name, or try again in \(seconds) s."
        }
        logQuietly("account-limit", "refused a join from \(connection.address): over its allowance of account records")
        return WireError(.accountLimit, message, details: ["retryAfterMs": .int(waitMs)])
    }

    /// Spends what the record an admitted join wrote costs its address, network or account.
    func spendAllowance(for admission: SeatAdmission, from connection: Connection) {
        guard !connection.isHouseBot, let kind = admission.recordKind else { return }
        _ = recordAllowance.allow(kind, from: connection.address, at: clock.now())
    }

    /// What the record an admission writes costs in the store, for every node (PostgreSQL; a
    /// SQLite store is one server's, and its `recordAllowance` is the whole ration).
    func recordCharge(for admission: SeatAdmission, from connection: Connection) -> RecordCharge {
        guard !connection.isHouseBot, let kind = admission.recordKind else { return .none }
        return RecordCharge.of(kind, from: connection.address, limits: config.recordLimits)
    }
}

extension SeatAdmission {
    /// The record this admission writes, if any.
    var recordKind: AccountRecordKind? {
        switch self {
        case .guest, .existing: nil
        case .creating: .create
        case .renaming(let account, _): .rename(account: account.id)
        }
    }
}
