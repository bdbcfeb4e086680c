import Foundation
import SetRules

/// A seeded accounts log as the version before the database wrote it (`accounts.jsonl`), with
/// what an import must get right: renames, look-alike names, rated and unrated duels, draws,
/// aborted and solo games, guests, an account playing itself, set times past 25.4 s and below
/// zero, a gap in the ids, and games of guests alone (which are not imported).
enum OldAccountLog {
    static func lines(accounts: Int = 40, games: Int = 600, seed: UInt64 = 7) -> [String] {
        var random = SplitMix64(seed: seed)
        var lines: [String] = []
        var ids: [Int] = []
        for id in 0...accounts where id != 5 {
            ids.append(id)
            // Account 11's name looks like account 10's ("а" is Cyrillic): the old log held both.
            let name = id == 10 ? "ann" : id == 11 ? "\u{0430}nn" : "p\(id)"
            let head = id % 9 == 4 ? "{\"bot\":true," : "{"
            lines.append("\(head)\"id\":\(id),\"identity\":\"key:\(String(format: "%064x", id + 1))\","
                         + "\"name\":\"\(name)\",\"type\":\"account\",\"wall\":\(1_790_000_000 + id)}")
        }
        var wall = 1_795_000_000
        for g in 0..<games {
            wall += Int.random(in: 0...3_000, using: &random)
            if g == 100 { lines.append("{\"id\":10,\"name\":\"anna\",\"type\":\"rename\"}") }
            if g == 150 { lines.append("{\"id\":12,\"name\":\"ann\",\"type\":\"rename\"}") }
            // Account 11 keeps its look-alike name to the end.
            if g % 37 == 36 { lines.append("{\"id\":\(ids.filter { $0 != 11 }.randomElement(using: &random)!),\"name\":\"r\(g)\",\"type\":\"rename\"}") }
            lines.append(game(g, wall: wall, ids: ids, random: &random))
        }
        return lines
    }

    /// One game line of a kind drawn at random.
    private static func game(_ g: Int, wall: Int, ids: [Int], random: inout SplitMix64) -> String {
        let a = ids.randomElement(using: &random)!
        var b = ids.randomElement(using: &random)!
        while b == a { b = ids.randomElement(using: &random)! }
        let variant = ["classic", "junior", "chain"].randomElement(using: &random)!
        var mode = "duel", outcome = "win", rated = false, winner: Int? = Int.random(in: 0...1, using: &random)
        var seats: [Int?] = [a, b]
        switch Int.random(in: 0..<10, using: &random) {
        case 0...4: rated = true
        case 5: (outcome, winner) = ("draw", nil)
        case 6: (mode, outcome, winner, seats) = ("solo", "solo", nil, [a])
        case 7: seats = [a, a]
        case 8: seats = [a, nil]
        default: (outcome, winner, seats) = ("aborted", nil, [nil, nil])
        }
        if rated && Int.random(in: 0..<5, using: &random) == 0 { (outcome, winner) = ("draw", nil) }
        let players = seats.enumerated().map { seat, account in
            player(account, seat: seat, rated: rated, random: &random)
        }
        let won = winner.map { ",\"winner\":\($0)" } ?? ""
        return "{\"commitment\":\"\(String(format: "%064x", g * 7_919 + 1))\",\"durationMs\":\(Int.random(in: 1_000...900_000, using: &random)),"
            + "\"endedAt\":\(g * 1_000),\"game\":\(g % 3 + 1),\"journal\":\"m\(g).jsonl\",\"match\":\"m\(g)\",\"mode\":\"\(mode)\","
            + "\"outcome\":\"\(outcome)\",\"players\":[\(players.joined(separator: ","))],\"rated\":\(rated),\"reason\":\"no_sets_left\","
            + "\"type\":\"game\",\"variant\":\"\(variant)\",\"wall\":\(wall)\(won)}"
    }

    private static func player(_ account: Int?, seat: Int, rated: Bool, random: inout SplitMix64) -> String {
        let times = (0..<Int.random(in: 0...12, using: &random)).map { _ in
            switch Int.random(in: 0..<20, using: &random) {
            case 0: -3
            case 1: 0
            case 2: Int.random(in: 25_400...90_000, using: &random)
            default: Int.random(in: 300...25_000, using: &random)
            }
        }
        var fields = account.map { ["\"account\":\($0)"] } ?? []
        if rated {
            for key in ["after", "before"] {
                let r = Double.random(in: 1_100...1_900, using: &random), rd = Double.random(in: 45...350, using: &random)
                fields.append("\"\(key)\":{\"r\":\"\(r)\",\"rd\":\"\(rd)\",\"vol\":\"\(Double.random(in: 0.05...0.07, using: &random))\"}")
            }
        }
        fields.append("\"name\":\"\(account.map { "p\($0)" } ?? "guest\(seat)")\"")
        fields.append("\"points\":\(Int.random(in: -2...30, using: &random)),\"sets\":\(times.count)")
        fields.append("\"setTimes\":[\(times.map(String.init).joined(separator: ","))]")
        return "{" + fields.joined(separator: ",") + "}"
    }

    /// Writes the log into `folder/accounts/accounts.jsonl` and returns its path.
    @discardableResult
    static func write(_ lines: [String], into folder: String) throws -> String {
        try FileManager.default.createDirectory(atPath: folder + "/accounts", withIntermediateDirectories: true)
        let path = folder + "/accounts/accounts.jsonl"
        try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: URL(fileURLWithPath: path))
        return path
    }
}
