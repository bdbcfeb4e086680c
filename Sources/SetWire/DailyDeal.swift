import Foundation

/// The deal of the day: one seed per UTC date, the same for everyone, so players compare times on
/// the same cards. Anyone derives it: the first 8 bytes of SHA-256 of "setgame-daily-YYYY-MM-DD",
/// read big-endian (`printf 'setgame-daily-%s' 2026-11-25 | sha256sum | cut -c1-16` is its hex).
package struct DailyDeal: Equatable, Hashable, Sendable {
    package let year: Int
    package let month: Int
    package let day: Int

    /// The deal of a calendar date; nil when the date does not exist.
    package init?(year: Int, month: Int, day: Int) {
        var parts = DateComponents()
        (parts.year, parts.month, parts.day) = (year, month, day)
        guard (1...9999).contains(year), parts.isValidDate(in: Self.calendar) else { return nil }
        (self.year, self.month, self.day) = (year, month, day)
    }

    /// The deal of the UTC day `instant` falls on. The caller reads the clock; this only converts.
    package init(utcDayOf instant: Date) {
        let parts = Self.calendar.dateComponents([.year, .month, .day], from: instant)
        year = parts.year ?? 1970
        month = parts.month ?? 1
        day = parts.day ?? 1
    }

    /// The date as YYYY-MM-DD: how it is named in the seed's text, in folders and in what is printed.
    package var date: String { String(format: "%04d-%02d-%02d", year, month, day) }

    /// The seed the server deals the day's first game from.
    package var seed: UInt64 {
        SHA256.hash(Array("setgame-daily-\(date)".utf8)).prefix(8).reduce(0) { $0 << 8 | UInt64($1) }
    }

    /// The commitment the server publishes for that seed (see `SeedCommitment`).
    package var commitment: String { SeedCommitment.commitment(for: seed) }

    private static let calendar: Calendar = {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC") ?? TimeZone(secondsFromGMT: 0) ?? calendar.timeZone
        return calendar
    }()
}
