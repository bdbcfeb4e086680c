import SetRules

/// Arenas an operator keeps on a schedule (`serve --arena-schedule PREFIX=EVERY:MINUTES:MODE`,
/// issue 44): one every `everyMinutes`, `minutes` long, in `variant`, rated. Slots start at the
/// multiples of the period since 1970 (UTC), so every node with the same setting sees the same
/// slots; each slot's arena is named after its start (`PREFIX-YYMMDDHHMM`, UTC), so the store's
/// unique name makes it once for the whole service, whichever nodes create it. Pure: the time
/// comes in, the slots go out.
package struct ArenaSchedule: Sendable, Equatable {
    package var prefix: String
    package var everyMinutes: Int
    package var minutes: Int
    package var variant: Variant

    /// One slot of a schedule: its arena's name and its start and end (wall-clock milliseconds).
    package struct Slot: Sendable, Equatable, Hashable {
        package var name: String
        package var startsAt: Int64
        package var endsAt: Int64
    }

    /// A prefix leaves room for `-YYMMDDHHMM` within an arena name's 20 characters.
    package static let prefixLength = 1...9
    package static let everyRange = 1...1_440
    package static let minutesRange = 1...180
    /// The creator address the store keeps for a scheduled arena (no client has it).
    static let creator = "schedule"

    package init(prefix: String, everyMinutes: Int, minutes: Int, variant: Variant) {
        (self.prefix, self.everyMinutes, self.minutes, self.variant) = (prefix, everyMinutes, minutes, variant)
    }

    /// Parses `PREFIX=EVERY:MINUTES:MODE`; the problem, in words, when it is not one.
    package static func parse(_ text: String) -> Result<ArenaSchedule, ArenaScheduleProblem> {
        let parts = text.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count == 2 else { return .failure(.shape(text)) }
        let prefix = String(parts[0]), fields = parts[1].split(separator: ":", omittingEmptySubsequences: false).map(String.init)
        guard fields.count == 3, let every = Int(fields[0]), let minutes = Int(fields[1]) else { return .failure(.shape(text)) }
        guard prefixLength.contains(prefix.count), prefix.unicodeScalars.allSatisfy(isNameCharacter) else { return .failure(.prefix(prefix)) }
        guard everyRange.contains(every) else { return .failure(.every(every)) }
        guard minutesRange.contains(minutes), minutes <= every else { return .failure(.minutes(minutes, every: every)) }
        guard let variant = Variant(rawValue: fields[2]) else { return .failure(.mode(fields[2])) }
        return .success(ArenaSchedule(prefix: prefix, everyMinutes: every, minutes: minutes, variant: variant))
    }

    private static func isNameCharacter(_ scalar: Unicode.Scalar) -> Bool {
        scalar.isASCII && (("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || ("0"..."9").contains(scalar) || scalar == "-" || scalar == "_")
    }

    var periodMs: Int64 { Int64(everyMinutes) * 60_000 }
    var lengthMs: Int64 { Int64(minutes) * 60_000 }
    /// How long before its start a slot's arena is made and listed: one period, at most an hour
    /// (as far ahead as `arena_create` may start one), so the next slot is listed while the
    /// last one runs and players can join it before it starts.
    var leadMs: Int64 { min(periodMs, 3_600_000) }

    /// The slots whose arenas exist at wall time `now`: the one running, if any, and the ones
    /// starting within the lead, earliest first.
    package func slots(at now: Int64) -> [Slot] {
        // Slot k runs from k·period to k·period + length; it is due from its start minus the lead.
        let first = Self.floorDiv(now - lengthMs, periodMs) + 1, last = Self.floorDiv(now + leadMs, periodMs)
        guard first <= last else { return [] }
        return (first...last).map(slot)
    }

    /// The next wall time after `now` at which a slot becomes due (its arena is to be made).
    package func nextSlotDue(after now: Int64) -> Int64 {
        (Self.floorDiv(now + leadMs, periodMs) + 1) * periodMs - leadMs
    }

    func slot(_ index: Int64) -> Slot {
        let start = index * periodMs
        return Slot(name: "\(prefix)-\(Self.stamp(start))", startsAt: start, endsAt: start + lengthMs)
    }

    /// `YYMMDDHHMM` of a wall time (UTC).
    static func stamp(_ wall: Int64) -> String {
        let minutes = floorDiv(wall, 60_000), days = floorDiv(minutes, 1_440), inDay = minutes - days * 1_440
        let (year, month, day) = civil(days)
        let fields = [year % 100, month, day, inDay / 60, inDay % 60]
        return fields.map { $0 < 10 ? "0\($0)" : "\($0)" }.joined()
    }

    /// The proleptic Gregorian date of a day counted from 1970-01-01 (Howard Hinnant's `civil_from_days`).
    static func civil(_ days: Int64) -> (Int64, Int64, Int64) {
        let z = days + 719_468, era = floorDiv(z, 146_097), dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1_460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let shifted = (5 * dayOfYear + 2) / 153, day = dayOfYear - (153 * shifted + 2) / 5 + 1
        let month = shifted < 10 ? shifted + 3 : shifted - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    static func floorDiv(_ a: Int64, _ b: Int64) -> Int64 {
        let q = a / b
        return (a % b != 0 && (a < 0) != (b < 0)) ? q - 1 : q
    }
}

/// Why an `--arena-schedule` value is not one; its description follows the option's name.
package enum ArenaScheduleProblem: Error, Equatable, CustomStringConvertible {
    case shape(String), prefix(String), every(Int), minutes(Int, every: Int), mode(String)

    package var description: String {
        switch self {
        case .shape(let text): " takes PREFIX=EVERY:MINUTES:MODE (e.g. hourly=60:10:classic), not '\(text)'"
        case .prefix(let prefix): "'s prefix is 1-9 of A-Z a-z 0-9 - _ (the arena's name adds -YYMMDDHHMM), not '\(prefix)'"
        case .every(let every): "'s period is 1-1440 minutes, not \(every)"
        case .minutes(let minutes, let every): "'s arenas last 1-180 minutes and no longer than the period (\(every)), not \(minutes)"
        case .mode(let mode): "'s mode is \(Variant.allCases.map(\.rawValue).joined(separator: ", ")), not '\(mode)'"
        }
    }
}
