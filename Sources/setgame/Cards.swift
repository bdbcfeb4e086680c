import Foundation
import SetCLI
import SetNet
import SetScreen
import SetTerminal

/// `setgame cards`: prints every card as a table of 12 draws it at the asked (or this) terminal size.
func cards(_ options: CardsOptions) -> Int32 {
    let terminal = options.columns.flatMap { columns in options.rows.map { TerminalSize(columns: columns, rows: $0) } }
        ?? TerminalSession.size()
    let theme = Theme.from(environment: ProcessEnvironment.variables, colorblind: options.colorblind)
    // Colours only for a terminal: a file or a pipe gets plain text.
    guard let gallery = CardGallery.text(terminal: terminal, theme: theme, styled: isatty(STDOUT_FILENO) == 1) else {
        let least = ScreenLayout.minimumSize(cardCount: 12, columns: terminal.columns)
        printError("setgame cards: a table of 12 does not fit \(terminal.columns)×\(terminal.rows); it needs at least \(least.columns)×\(least.rows)")
        return 1
    }
    print(gallery, terminator: "")
    return 0
}
