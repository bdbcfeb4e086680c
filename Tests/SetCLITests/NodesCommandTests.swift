import SetCLI
import SetServer
import Testing

/// `setgame nodes [list | drain NAME | resume NAME | forget NAME] --store URL`, and its table.
@Suite struct NodesCommandTests {
    static let store = "postgresql://setgame@10.0.0.9:5432/setgame"

    @Test func eachActionParsesWithTheStore() throws {
        let cases: [([String], NodesCommand.Action)] = [
            ([], .list), (["list"], .list), (["drain", "c"], .drain("c", true)), (["resume", "c"], .drain("c", false)), (["forget", "c"], .forget("c")),
            (["silence", "address 203.0.113.9"], .silence("address 203.0.113.9", true)),
            (["unsilence", "address 203.0.113.9"], .silence("address 203.0.113.9", false)), (["silenced"], .silenced),
        ]
        for (words, action) in cases {
            #expect(try Commands.parse(["nodes"] + words + ["--store", Self.store]) == .nodes(NodesCommand(action: action, storeURL: Self.store)))
        }
    }

    @Test func aMissingStoreNameOrUnknownActionIsAUsageError() {
        #expect(throws: UsageError("nodes needs --store postgresql://…, the store the nodes share", command: "nodes")) {
            try Commands.parse(["nodes"])
        }
        #expect(throws: UsageError("nodes needs --store postgresql://…, the store the nodes share", command: "nodes")) {
            try Commands.parse(["nodes", "--store", "/var/lib/setgame/accounts.sqlite3"])
        }
        #expect(throws: UsageError("nodes forget needs one node NAME", command: "nodes")) {
            try Commands.parse(["nodes", "forget", "--store", Self.store])
        }
        #expect(throws: UsageError("nodes silence needs one ENTRY, quoted: 'address 203.0.113.9'", command: "nodes")) {
            try Commands.parse(["nodes", "silence", "--store", Self.store])
        }
        #expect(throws: UsageError("nodes takes list, drain NAME, resume NAME, forget NAME, silence ENTRY, unsilence ENTRY or silenced, not 'retire c'", command: "nodes")) {
            try Commands.parse(["nodes", "retire", "c", "--store", Self.store])
        }
    }

    @Test func theTableSaysEachNodesStateAndMatchesInColumns() {
        let nodes = [
            NodeStanding(name: "a", address: "a.play.example.org:7380", state: .serving, matches: 312),
            NodeStanding(name: "b", address: "b.play.example.org:7380", state: .draining(sinceMs: 1_000), matches: 4),
            NodeStanding(name: "c", address: "10.0.0.3:7380", state: .away(sinceMs: 1_000 - 3 * 3_600_000), matches: 17),
        ]
        #expect(NodesReport.lines(nodes, now: 181_000) == [
            "NODE  ADDRESS                  STATE               MATCHES",
            "a     a.play.example.org:7380  serving             312",
            "b     b.play.example.org:7380  draining for 3 min  4",
            "c     10.0.0.3:7380            away for 3 h        17",
        ])
        #expect(NodesReport.lines([], now: 0) == ["no node has registered in this store"])
    }
}
