import Foundation
import SetRules
import SetWire

/// The accepted challenges' duels (`ReservedMatch` with `unclaimedUntil`) kept in the data folder,
/// so a node killed before their players sat still seats both tokens once it is back, for the
/// rest of the seat wait (Protocol.md, "The lobby and challenges"). Before a deal such a duel
/// keeps no journal; this file is all that remembers it. Rewritten whole (a new file renamed
/// over the old): a kill leaves the old list or the new one.
struct ReservedDuelsFile {
    let path: String

    init(folder: String) { path = folder + "/reserved-duels.json" }

    /// What the last run kept; nothing for a missing or unreadable file (a duel then lapses, as before).
    func read() -> [String: ReservedMatch] {
        guard let bytes = FileManager.default.contents(atPath: path), let value = try? JSONParser.parse([UInt8](bytes)),
              case .object(let members) = value else { return [:] }
        return members.compactMapValues { entry in
            guard let tokens = entry["tokens"]?.arrayValue?.compactMap(\.stringValue), let mode = entry["mode"]?.stringValue.flatMap(Mode.init),
                  let variant = entry["variant"]?.stringValue.flatMap(Variant.init), let until = entry["until"]?.intValue else { return nil }
            return ReservedMatch(tokens: Set(tokens), mode: mode, variant: variant, unclaimedUntil: Instant(milliseconds: until),
                                 rated: entry["rated"]?.boolValue ?? true)
        }
    }

    /// Keeps the one-occasion reservations of `reserved` (the others come from the command line).
    func write(_ reserved: [String: ReservedMatch]) {
        var members: [String: JSONValue] = [:]
        for (name, match) in reserved {
            guard let until = match.unclaimedUntil else { continue }
            var entry: [String: JSONValue] = ["tokens": .array(match.tokens.sorted().map { .string($0) }), "mode": .string(match.mode.rawValue),
                                              "variant": .string(match.variant.rawValue), "until": .int(until.milliseconds)]
            // Only a casual arena's duel says so: a file of an older version reads as rated.
            if !match.rated { entry["rated"] = .bool(false) }
            members[name] = .object(entry)
        }
        let fresh = path + ".new"
        // Owner-readable only, as journals are: it holds seat tokens.
        guard FileManager.default.createFile(atPath: fresh, contents: Data(JSONWriter.bytes(.object(members))),
                                             attributes: [.posixPermissions: 0o600]) else { return }
        _ = rename(fresh, path)
    }
}
