
/// The house bots' names are the service's (issue 42 item 5): a TCP account through a node with
/// no door socket cannot take them, so the door's house bot on another node finds them free.
@Suite(.serialized) struct ServiceBotNameTests {
    @Test func aTCPAccountThroughANodeWithoutADoorCannotTakeAHouseBotsName() throws {
        guard let database = try TestDatabase.make(.postgres) else { return }
        let node = try NodeServerTests.node("a", database)
        defer { node.stop() }
        let match = NodeServerTests.matchName(on: "a", among: ["a"], prefix: "bots")
        for name in ["bot-easy", "BOT-NORMAL"] {
            let refused = try #require(try ServiceRationTests.join(node, name, key: ServiceRationTests.key(9), match: match), "\(name)")
            #expect(refused.code == .nameTaken, "\(name)")
        }
        #expect(try database.database.query("SELECT 1 FROM accounts").isEmpty, "no account took a house bot's name")
    }
}
