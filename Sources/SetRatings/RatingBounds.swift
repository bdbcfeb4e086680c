/// What a rating may be, the one rule both sides keep: the rater never produces a rating outside
/// it, and the import of an old accounts log refuses any record holding one. The figures are lichess's
/// (ratings 400–4000, RD 45–350, volatility at most 0.1), so no rating a reader accepts can make
/// Glicko-2's expected score exactly 0 or 1 and its update run away.
package enum RatingBounds {
    package static let rating = 400.0...4_000.0
    package static let deviation = Glicko2.deviationBounds
    package static let volatility = 0.000_001...0.1

    /// Whether `rating` may be stored and read back.
    package static func contains(_ rating: Rating) -> Bool {
        Self.rating.contains(rating.rating) && deviation.contains(rating.deviation) && volatility.contains(rating.volatility)
    }

    /// The rating brought within the bounds; a figure that is not a number (an update that
    /// overflowed) keeps `fallback`'s.
    package static func clamped(_ rating: Rating, fallback: Rating) -> Rating {
        func clamp(_ value: Double, _ range: ClosedRange<Double>, _ otherwise: Double) -> Double {
            guard value.isFinite else { return min(max(otherwise, range.lowerBound), range.upperBound) }
            return min(max(value, range.lowerBound), range.upperBound)
        }
        return Rating(rating: clamp(rating.rating, Self.rating, fallback.rating),
                      deviation: clamp(rating.deviation, deviation, fallback.deviation),
                      volatility: clamp(rating.volatility, volatility, fallback.volatility))
    }
}
