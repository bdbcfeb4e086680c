/// The SQL engines a `Database` speaks to; the few places their SQL differs ask this.
package enum SQLDialect: Sendable, Equatable {
    case sqlite, postgres

    /// The column type of a real number.
    package var double: String {
        switch self {
        case .sqlite: "REAL"
        case .postgres: "DOUBLE PRECISION"
        }
    }
}
