import SetRules

/// Each seat's claim races lost minus won, which decides whether its round trip may count in the
/// next one: lag compensation's quota.
///
/// The server cannot tell a player far away from a near one who answers its pings late, and a
/// near player feigning 160 ms is, race for race, exactly a far player 160 ms quicker than their
/// rival. A credit that every race may use hands that player nearly every close race; a quota that
/// refills with time or with each race still hands it most of them (it refills for the honest far
/// player at the same rate). So the quota is counted in races: a race won (by arrival or by
/// credit) spends one, a race lost earns one back, and a seat's credit counts only while it has
/// some. Credit then brings a seat its distance costs races back to even, and never past it: a
/// feigned distance wins about half the close races, as an honest player of equal speed does.
struct RaceLedger: Equatable {
    /// A seat starts with one race of credit, so the first close race of a far player is fair.
    static let startingCredit = 1
    /// How far the balance may go either way: lost races banked for later wins (and wins banked
    /// against later credit) count at most this many.
    static let limit = 6

    /// Races lost minus races won, per seat, from `startingCredit`, within ±`limit`.
    private(set) var balance: [Int]
    /// The claim that opened the window last counted, so one window makes one race.
    private(set) var lastCounted: RaceEntry?

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

    /// The window `winner` opened was raced by `loser`'s claim; counted once per window.
    mutating func record(winner: RaceEntry, loser: Seat) {
        guard winner != lastCounted, winner.seat != loser else { return }
        lastCounted = winner
        move(winner.seat, by: -1)
        move(loser, by: 1)
    }

    private mutating func move(_ seat: Seat, by step: Int) {
        guard balance.indices.contains(seat.rawValue) else { return }
        balance[seat.rawValue] = min(Self.limit, max(-Self.limit, balance[seat.rawValue] + step))
    }
}
