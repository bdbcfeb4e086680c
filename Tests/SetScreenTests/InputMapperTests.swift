import SetRules
import SetWire
import Testing
@testable import SetScreen

@Suite struct InputMapperTests {
    static let layout = ScreenLayout(size: TerminalSize(columns: 80, rows: 24), cardCount: 12,
                                     buttons: [.claim, .deal, .hint, .pass, .help, .quit], deck: true)

    func map(_ event: InputEvent, player: Bool = true, overlay: Overlay? = nil, picker: Int? = nil) -> ClientCommand? {
        InputMapper.command(for: event, in: InputContext(isPlayer: player, overlay: overlay, pickerRows: picker, layout: Self.layout))
    }

    func key(_ c: Character) -> InputEvent { .key(.character(c)) }

    @Test func commandKeys() {
        let expected: [(InputEvent, ClientCommand)] = [
            (.key(.left), .move(columns: -1, rows: 0)), (key("h"), .move(columns: -1, rows: 0)),
            (.key(.right), .move(columns: 1, rows: 0)), (key("l"), .move(columns: 1, rows: 0)),
            (.key(.up), .move(columns: 0, rows: -1)), (key("k"), .move(columns: 0, rows: -1)),
            (.key(.down), .move(columns: 0, rows: 1)), (key("j"), .move(columns: 0, rows: 1)),
            (key(" "), .toggleCursor), (key("s"), .claim), (.key(.enter), .claim), (key("d"), .deal),
            (key("c"), .hint), (key("p"), .pass), (key("r"), .rematch), (key("?"), .help), (key("q"), .quit),
            (.key(.ctrl("c")), .quitNow), (.key(.escape), .dismiss), (key("7"), .label("7")), (key("a"), .label("a")),
        ]
        for (event, command) in expected { #expect(map(event) == command, "\(event)") }
    }

    @Test func spectatorsOnlyNavigateGetHelpAndQuit() {
        #expect(map(.key(.left), player: false) == .move(columns: -1, rows: 0))
        #expect(map(key("?"), player: false) == .help)
        #expect(map(key("q"), player: false) == .quit)
        #expect(map(.key(.ctrl("c")), player: false) == .quitNow)
        for c in ["s", "d", "c", "p", "r", "1", "a", " "] as [Character] { #expect(map(key(c), player: false) == nil, "\(c)") }
        let card = Self.layout.table!.cardRects[0]
        #expect(map(.mouse(MouseEvent(button: .left, kind: .press, column: card.column + 1, row: card.row + 1)), player: false) == nil)
    }

    @Test func overlaysTakeTheKeys() {
        #expect(map(.key(.escape), overlay: .help) == .dismiss)
        #expect(map(key("?"), overlay: .help) == .dismiss)
        #expect(map(key("s"), overlay: .help) == nil)
        #expect(map(key("1"), overlay: .deckEmpty) == nil)
        #expect(map(.key(.enter), overlay: .deckEmpty) == .dismiss)
        #expect(map(key("q"), overlay: .confirmQuit) == .quitNow)
        #expect(map(key("x"), overlay: .confirmQuit) == .resign)
        #expect(map(.key(.escape), overlay: .confirmQuit) == .dismiss)
    }

    @Test func clicksHitCardsAndButtons() {
        let cards = Self.layout.table!.cardRects
        for (index, rect) in cards.enumerated() {
            let click = InputEvent.mouse(MouseEvent(button: .left, kind: .press, column: rect.column + rect.width / 2, row: rect.endRow - 1))
            #expect(map(click) == .toggle(index))
        }
        for (button, rect) in Self.layout.buttons {
            let click = InputEvent.mouse(MouseEvent(button: .left, kind: .press, column: rect.endColumn - 1, row: rect.row))
            #expect(map(click) == InputMapper.command(for: button))
        }
        let release = InputEvent.mouse(MouseEvent(button: .left, kind: .release, column: cards[0].column, row: cards[0].row))
        #expect(map(release) == nil, "a click acts once, on the press")
        #expect(map(.mouse(MouseEvent(button: .left, kind: .press, column: 0, row: 0))) == nil)
    }

    @Test func pickerKeys() {
        #expect(map(.key(.down), player: false, picker: 3) == .pickerMove(1))
        #expect(map(key("k"), player: false, picker: 3) == .pickerMove(-1))
        #expect(map(.key(.enter), player: false, picker: 3) == .pick(nil))
        #expect(map(key("2"), player: false, picker: 3) == .pick(1))
        let row = InputMapper.pickerFirstRow + 2
        #expect(map(.mouse(MouseEvent(button: .left, kind: .press, column: 5, row: row)), player: false, picker: 3) == .pick(2))
    }
}
