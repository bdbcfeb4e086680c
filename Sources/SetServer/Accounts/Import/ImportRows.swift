import SetDatabase

/// One table's rows for the import, kept flat: each row's values one after another, `columns` to
/// a row. A million games' rows are then a few arrays, not an array each (allocating and freeing
/// those, some 20 million, was the largest share of the import's CPU in `perf`).
struct ImportRows {
    /// The table and its columns, in the order each row's values follow (`ImportWriter`'s lists).
    let table: (name: String, columns: [String])
    private(set) var values: [SQLValue] = []

    init(_ table: (String, [String])) {
        self.table = table
    }

    /// Rows held.
    var count: Int { values.count / table.columns.count }

    var isEmpty: Bool { values.isEmpty }

    /// Appends one row: as many values as the table has columns (checked in debug builds).
    mutating func append(_ row: [SQLValue]) {
        assert(row.count == table.columns.count, "a row of \(row.count) values for \(table.columns.count) columns of \(table.name)")
        values.append(contentsOf: row)
    }

    /// Appends one row of three integers without an array for it (the set times' 14 million rows).
    mutating func append(_ a: Int, _ b: Int, _ c: Int) {
        assert(table.columns.count == 3, "three values for \(table.columns.count) columns of \(table.name)")
        values.append(.int(a))
        values.append(.int(b))
        values.append(.int(c))
    }

    /// The values of rows `range`.
    func values(ofRows range: Range<Int>) -> ArraySlice<SQLValue> {
        values[range.lowerBound * table.columns.count..<range.upperBound * table.columns.count]
    }

    /// Makes room for `rows` rows at once.
    mutating func reserve(rows: Int) {
        values.reserveCapacity(rows * table.columns.count)
    }

    mutating func removeAll() {
        values.removeAll(keepingCapacity: true)
    }
}
