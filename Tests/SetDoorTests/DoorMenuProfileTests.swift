import SetDoor
import SetWire
import Testing

/// Issue 44: the door menu's standing page shows the profile above the player's games and the
/// leaderboard on one screen, so it lists only the newest 3 of the profile's arenas.
@Suite struct DoorMenuProfileTests {
    @Test func theMenusProfileListsTheNewestThreeArenas() {
        let arenas: [JSONValue] = (1...10).map { ["arena": .string("a\($0)")] }
        let shown = DoorSession.menuProfile(AccountInfo(.profile, ["name": "ann", "arenas": .array(arenas)]))
        #expect(shown.fields["arenas"] == .array(Array(arenas.prefix(3))))
        #expect(shown.fields["name"] == "ann")
        let few = AccountInfo(.profile, ["name": "bob", "arenas": .array(Array(arenas.prefix(2)))])
        #expect(DoorSession.menuProfile(few) == few)
        let none = AccountInfo(.profile, ["name": "cat"])
        #expect(DoorSession.menuProfile(none) == none)
    }
}
