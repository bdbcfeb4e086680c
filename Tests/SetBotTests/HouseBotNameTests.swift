import SetBot
@testable import SetServer
import Testing

/// The server keeps the house bots' names without knowing the bots (modules point down): its
/// list must name every level a door can start.
struct HouseBotNameTests {
    @Test func theServerKeepsEveryLevelsName() {
        let levels = Swift.Set(BotLevel.allCases.map { "bot-\($0.rawValue)" })
        #expect(levels == ReservedNames.houseBotNames)
        for name in levels {
            #expect(ReservedNames(houseBots: true).reservation(of: name) == .houseBot, "\(name)")
            #expect(ReservedNames(houseBots: false).reservation(of: name) == nil, "\(name): no door, no house bots")
        }
    }
}
