import SetRules

/// Each seat's claim windows taken by its rival minus those it took itself, which decides whether
/// its round trip may count in the next claim race: lag compensation's quota.
///
/// The server cannot tell a player far away from a near one who answers its pings late, and a
/// near player feigning 160 ms is, race for race, exactly a far player 160 ms quicker than their
/// rival. A credit every race may use hands that player nearly every close race; a quota that
/// refills with time or with each race (scalachess's lag quota) refills the honest far player at
/// the same rate, so it cannot stop one without starving the other. So the quota is counted in
/// windows: a claim window a seat opens spends one, one its rival opens earns one back, and a
/// seat's credit counts only while it has some. Credit then helps a seat its distance keeps
/// behind, and never one ahead: a feigned distance takes about as many windows as an honest
/// player of equal speed does. Only windows opened by a claim count (not second chances or a
/// deal's grace), whether or not the rival claimed too: a rival who did not press in time is not
/// seen, and a cheat who wins on arrival must pay for it as well.
struct RaceLedger: Equatable {
    /// A seat starts one window ahead, so a far player's first close race is compensated.
    static let startingCredit = 1
    /// How far the balance may go either way: windows banked for later credit (or taken against
    /// it) count at most this many, so a lead or a deficit is forgotten within a few windows.
    static let limit = 6

    /// Windows the rival opened minus windows this seat opened, per seat, from `startingCredit`,
    /// within ±`limit`.
    private(set) var balance: [Int]

    init(seats: Int) { balance = Array(repeating: Self.startingCredit, count: seats) }

    /// Whether `seat`'s round trip may count in a race now.
    func hasCredit(_ seat: Seat) -> Bool { balance.indices.contains(seat.rawValue) && balance[seat.rawValue] > 0 }

    /// The lag a race uses: a seat without credit is credited nothing.
    func limiting(_ lag: ClaimLag) -> ClaimLag {
        guard lag.isOn else { return lag }
        var limited = lag
        for seat in Seat.allCases where limited.roundTripMs.indices.contains(seat.rawValue) && !hasCredit(seat) {
            limited.roundTripMs[seat.rawValue] = 0
        }
        return limited
    }

    /// `seat` was caught nearer than its pongs make it look (a claim that saw a window open
    /// sooner than its round trip allows): the windows it banked are forfeited, so its round trip
    /// counts again only once its rival has taken more windows than it has since.
    mutating func forfeit(_ seat: Seat) {
        guard balance.indices.contains(seat.rawValue) else { return }
        balance[seat.rawValue] = min(balance[seat.rawValue], 0)
    }

    /// `seat`'s claim opened a claim window: it spends one, every other seat earns one.
    mutating func opened(by seat: Seat) {
        for index in balance.indices {
            let step = index == seat.rawValue ? -1 : 1
            balance[index] = min(Self.limit, max(-Self.limit, balance[index] + step))
        }
    }
}
