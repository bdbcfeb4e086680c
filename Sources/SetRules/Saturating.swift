/// Arithmetic that stops at the ends of `Int64` instead of trapping: for values that came from
/// outside (a server's clock, a journal) and are only compared or shown.
extension Int64 {
    /// `self + other`, held at `Int64.min` or `Int64.max` rather than overflowing.
    package func saturatingAdding(_ other: Int64) -> Int64 {
        let (sum, overflow) = addingReportingOverflow(other)
        return overflow ? (other > 0 ? .max : .min) : sum
    }

    /// `self - other`, held at `Int64.min` or `Int64.max` rather than overflowing.
    package func saturatingSubtracting(_ other: Int64) -> Int64 {
        let (difference, overflow) = subtractingReportingOverflow(other)
        return overflow ? (other < 0 ? .max : .min) : difference
    }
}
