import SetRatings
import SetRules

/// An account's rating in each variant it has played rated: most accounts play one or two of
/// the four, so the ratings are a short list kept in variant order (one small allocation,
/// where a dictionary costs three times as much for each of 100,000 accounts).
struct VariantRatings: Equatable {
    private var entries: [(variant: Variant, rating: Rating)] = []

    init() {}

    subscript(variant: Variant) -> Rating? {
        get { entries.first { $0.variant == variant }?.rating }
        set {
            let position = entries.firstIndex { $0.variant.order >= variant.order } ?? entries.endIndex
            let present = position < entries.endIndex && entries[position].variant == variant
            switch (newValue, present) {
            case (let rating?, true): entries[position].rating = rating
            case (let rating?, false): entries.insert((variant, rating), at: position)
            case (nil, true): entries.remove(at: position)
            case (nil, false): break
            }
        }
    }

    /// The rated variants with their ratings, in `Variant.allCases` order.
    var all: [(variant: Variant, rating: Rating)] { entries }

    static func == (lhs: VariantRatings, rhs: VariantRatings) -> Bool {
        lhs.entries.elementsEqual(rhs.entries) { $0.variant == $1.variant && $0.rating == $1.rating }
    }
}

private extension Variant {
    /// Its place in `allCases`, without making that array at every rating a start applies.
    var order: Int {
        switch self {
        case .classic: 0
        case .junior: 1
        case .chain: 2
        case .ultra: 3
        }
    }
}
