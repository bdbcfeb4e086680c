import SetRules
import SetWire

/// The two rows above the table: the scoreboard (names, scores, deck, spectators, connection) and
/// the status line (who may act and for how long, then the latest news).
enum StatusLines {
    /// Row 0: players on the left, match facts on the right.
    static func scoreboard(_ state: ClientState, at now: Int64, width: Int) -> (left: [Span], right: [Span]) {
        let theme = state.options.theme
        var left: [Span] = [Span(" ")]
        var roundTripSpans: [Int] = []
        // Each player's name span, the name and what follows it in the span: cut last of all.
        var nameSpans: [(index: Int, name: String, suffix: String)] = []
        if let view = state.view {
            var seats = view.players.map(\.seat)
            // A player sees themselves first.
            if state.isPlayer, let me = state.seat, let index = seats.firstIndex(of: me) { seats.insert(seats.remove(at: index), at: 0) }
            // Ratings show only where the game may be rated: a duel whose every player has an
            // account. Solo games and games with a guest never are, and "1500?" there misled.
            let rated = view.mode == .duel && view.players.allSatisfy { $0.rating != nil }
            for (i, seat) in seats.enumerated() {
                guard let player = view.player(seat) else { continue }
                if i > 0 { left.append(Span("  vs  ", theme.quiet)) }
                let holds = view.window?.holder == seat && view.phase == .playing
                let isMe = state.isPlayer && seat == state.seat
                left.append(Span(player.present ? "●" : "○", player.present ? theme.online : theme.quiet))
                let nameStyle = holds ? theme.holder : isMe ? theme.mine : .plain
                let suffix = isMe && view.mode == .duel ? " (you)" : ""
                nameSpans.append((left.count, player.name, suffix))
                left.append(Span(" \(player.name)\(suffix)", nameStyle))
                // An account's rating, as lichess shows it beside the name; `?` while provisional.
                if rated, let rating = player.rating { left.append(Span(" \(rating)\(player.provisional ? "?" : "")", theme.quiet)) }
                left.append(Span(" ", nameStyle))
                left.append(Span(player.score.scoreText, CellStyle(bold: true)))
                if !player.present {
                    left.append(Span(" away", theme.quiet))
                } else if let rtt = view.roundTripMs.indices.contains(seat.rawValue) ? view.roundTripMs[seat.rawValue] : nil {
                    // The server's measure of each player's round trip: what its claim races credit.
                    // Labelled: three bare numbers ("42 12ms") read as nothing in particular.
                    roundTripSpans.append(left.count)
                    left.append(Span(" ping \(rtt)ms", theme.quiet))
                }
            }
            // A local match's bot joins at the player's first key: until then nobody is awaited.
            if view.mode == .duel && view.players.count < 2 && !(state.awaitingStart && state.isPlayer) {
                left.append(Span("  waiting for an opponent", theme.quiet))
            }
        } else if state.isPicking {
            left.append(Span("Choose a match to watch", CellStyle(bold: true)))
        }
        // Each fact with how much it matters: when room runs out the least of them goes first, and
        // whole, since a word cut in half reads as nonsense ("bob 17 ching").
        var facts: [(text: String, weight: Double)] = []
        if let view = state.view, !state.isPicking {
            facts.append((view.match, 3))
            // The variant outlasts every other fact: without it, a door duel at 80 columns never
            // said which game was being played.
            if view.variant != .classic { facts.append((view.variant.title, 6)) }
            if view.game > 1 { facts.append(("game \(view.game)", 2)) }
            // Before the first deal the deck is not empty, only not yet there.
            if view.phase != .waiting { facts.append((view.deck == 0 ? "deck empty" : "deck \(view.deck)", 5)) }
            // A player knows their match's name; who watches them is news, so it outlasts the name.
            if view.spectators > 0 { facts.append(("\(view.spectators) watching", state.isPlayer ? 3.5 : 1)) }
            // Spectators hear the count of a table only once it is no longer live.
            if let sets = state.setsOnTable, !state.isPlayer { facts.append((sets == 1 ? "last table: 1 set" : "last table: \(sets) sets", 0)) }
        }
        var connection: [Span]
        switch state.connection {
        case .live: connection = [Span(state.clock.roundTrip.map { "  ping \($0) ms " } ?? "  ", theme.quiet), Span("● ", theme.online)]
        case .joining, .connecting: connection = [Span("  connecting ◌ ", theme.quiet)]
        case .lost: connection = [Span("  offline ✗ ", theme.offline)]
        }
        func right() -> [Span] { [Span(facts.map(\.text).joined(separator: " · "), theme.quiet)] + connection }
        // Facts give way before the players do: first the least useful whole facts, then the round
        // trip; then the players move closer, and only then does the last fact go.
        while left.width + right().width > width, facts.count > 1, let least = facts.indices.min(by: { facts[$0].weight < facts[$1].weight }) {
            facts.remove(at: least)
        }
        if left.width + right().width > width, state.connection == .live { connection[0].text = "  " }
        // The players' round trips go before the players move closer.
        if left.width + right().width > width { roundTripSpans.reversed().forEach { left.remove(at: $0) } }
        if left.width + right().width > width, let vs = left.firstIndex(where: { $0.text == "  vs  " }) { left[vs].text = " vs " }
        if left.width + right().width > width { facts.removeAll() }
        // Then the longest name loses a cell at a time, down to a few and "…": a score is what
        // the header is for, and 24-character names pushed the opponent's off the row.
        var shown = nameSpans.map(\.name.displayWidth)
        while left.width + right().width > width,
              let longest = shown.indices.max(by: { shown[$0] < shown[$1] }), shown[longest] > Self.shortestName {
            shown[longest] -= 1
            let entry = nameSpans[longest]
            let name = DisplayWidth.prefix(entry.name, cells: shown[longest] - 1) + "…"
            // The span keeps the player's style; `shown` may exceed a cut at a wide character.
            left[entry.index].text = " \(name)\(entry.suffix)"
        }
        let right = right()
        return (left, right)
    }

    /// The fewest cells a name is cut to in the scoreboard, "…" included.
    static let shortestName = 4

    /// Row 1: the one thing that matters most now, then the newest notice.
    static func status(_ state: ClientState, at now: Int64) -> (main: [Span], notice: [Span]) {
        let theme = state.options.theme
        // The two newest notices: a deal's penalty and its "three more cards" arrive together.
        var notice: [Span] = []
        // A notice about a window ("bob holds the window") goes with that window.
        for item in state.notices.filter({ $0.until > now && ($0.window == nil || $0.window == state.view?.window) }).suffix(2) {
            if !notice.isEmpty { notice.append(Span(" · ", theme.quiet)) }
            notice.append(Span(item.text, theme.style(for: item.tone)))
        }
        var main: [Span] = [Span(" ")]
        if case .lost(let reason, let retryAt, _) = state.connection {
            let seconds = max(0, retryAt.saturatingSubtracting(now).saturatingAdding(999) / 1_000)
            // The countdown first: the reason may be long and is cut at the edge.
            let short = reason.split(separator: ":").last.map { $0.trimmingCharacters(in: .whitespaces) } ?? reason
            main.append(Span("Connection lost: retrying in \(seconds) s (\(short.lowercased()))", theme.offline))
            return (main, [])
        }
        if let wait = state.session.nodeAway {
            let holder = wait.node.map { " (\(ServerText.printable($0)))" } ?? ""
            main.append(Span("The server holding this match\(holder) is away: asking again in \(wait.secondsLeft(at: now)) s", theme.offline))
            return (main, notice)
        }
        guard let view = state.view else {
            if state.isPicking { return (main + [Span("↑↓ choose · Enter watch · q quit", theme.quiet)], notice) }
            let text = state.connection == .live || state.connection == .joining ? "Joining…"
                // Through the door the server's own address is nobody's business: it is not where the player went.
                : state.options.door != nil ? "Connecting…" : "Connecting to \(state.options.serverAddress)…"
            return (main + [Span(text, theme.quiet)], notice)
        }
        let serverNow = state.clock.serverTime(at: now)
        if state.awaitingStart && state.isPlayer {
            // The start box says which key to press; the row says it only when a box hides it.
            if state.overlay != nil {
                main.append(Span(view.forfeitAt != nil ? "Your game is kept: press any key to resume" : "Press any key to start", CellStyle(bold: true)))
            }
            return (main, notice)
        }
        if view.forfeitAt != nil, view.phase == .playing, state.options.holdsBot,
           state.options.isLocal || ClientApp.holdsLocalBot(state.overlay) {
            // A bot beside us steps away while help or the leave box is open; nobody forfeits a
            // game kept on this machine (the door's bot is back when the box closes).
            let reading = switch state.overlay {
            case .help: "Paused while you read the help"
            case .confirmQuit: "Paused while you decide"
            default: "Paused: the bot is coming back…"
            }
            main.append(Span(reading, theme.quiet))
            return (main, notice)
        }
        if let forfeitAt = view.forfeitAt, view.phase == .playing {
            let away = view.players.filter { !$0.present }.map(\.name).joined(separator: " and ")
            let left = max(0, forfeitAt.saturatingSubtracting(serverNow)) / 1_000
            // A server that keeps seats for days (a game kept on its player's machine waits a
            // year) counts nothing down a person waits for: "forfeit in 364 days" beside a game
            // on its start box reads as a threat.
            let when = state.seatWaitMs ?? 0 > Self.countdownLimit ? "" : ", forfeit in \(countdown(seconds: left))"
            main.append(Span("\(away.isEmpty ? "A player" : away) is away: the match waits\(when)", theme.style(for: .bad)))
            return (main, notice)
        }
        switch view.phase {
        case .waiting:
            main.append(Span("Waiting for an opponent to join \(view.match)…", theme.quiet))
        case .over:
            let again = view.mode == .solo ? "r new game · " : state.opponentGone == nil ? "r rematch · " : ""
            main.append(Span(state.isPlayer ? "Game over: \(again)q quit" : "Game over", CellStyle(bold: true)))
        case .playing:
            if let shown = view.shown, state.isPlayer {
                main.append(Span(shown.isSet ? "\(view.variant.aPick.capitalizedFirst)! Touch any card to go on"
                                             : "\(verdict(view.variant.whyNot(shown.cards, chain: view.chain), variant: view.variant).capitalizedFirst): touch any card to go on",
                                 theme.style(for: shown.isSet ? .good : .bad)))
            } else if let window = view.window {
                main += windowSpans(window, state: state, serverNow: serverNow)
            } else if state.isPlayer && view.game == 1 && !state.claimPending && notice.isEmpty
                        && (view.variant == .classic || view.variant == .junior) {
                // The first game teaches the rule in one line, while no news needs the room; a
                // variant whose picks differ says so instead (its rule is in the help).
                main.append(Span(view.mode == .duel ? "Spot a set? 3 cards, each feature all alike or all different: s or pick one"
                                                    : "Pick three cards that form a set: each feature all alike or all different", theme.quiet))
            } else if state.isPlayer {
                let variant = view.variant
                let hint = view.mode == .duel ? "Spot \(variant.aPick)? Press s, or just pick a card"
                    : "Pick \(variant.pickCountWord) cards that form \(variant.aPick)"
                main.append(Span(state.claimPending ? "Calling Set!…" : hint, theme.quiet))
            } else if view.mode == .solo {
                main.append(Span("\(view.players.first?.name ?? "A player") plays alone", theme.quiet))
            } else {
                main.append(Span("Nobody holds the table", theme.quiet))
            }
        }
        return (main, notice)
    }

    /// A server whose seats wait longer than this (a day, in ms) shows no forfeit countdown.
    static let countdownLimit: Int64 = 24 * 3_600_000

    /// What a refused pick was, in words: "not a set", or why a real set was still refused.
    static func verdict(_ fault: PickFault?, variant: Variant) -> String {
        switch fault {
        case .chainCards: "refused: a set here uses exactly one chain card"
        case .twoAndOne, .thirdsDiffer, .count, nil: "not \(variant.aPick)"
        }
    }

    /// "alice called Set!  3.4 s ██████░░░░" from the viewer's side.
    static func windowSpans(_ window: Window, state: ClientState, serverNow: Int64) -> [Span] {
        let theme = state.options.theme
        let mine = state.isPlayer && window.holder == state.seat
        let who = state.name(of: window.holder)
        let text: String
        switch (window.kind, mine) {
        case (.claim, true): text = "Your claim: pick \((state.view?.variant ?? .classic).pickCountWord) cards"
        case (.claim, false): text = state.isPlayer ? "\(who) called Set!: wait" : "\(who) called Set!"
        case (.secondChance, true): text = "Your second chance: pick \((state.view?.variant ?? .classic).aPick)"
        case (.secondChance, false): text = "\(who)'s second chance\(state.isPlayer ? ": wait" : "")"
        case (.dealGrace, true): text = "Free look after the deal: pick \((state.view?.variant ?? .classic).aPick) at no risk"
        case (.dealGrace, false): text = "\(who)'s free look after the deal\(state.isPlayer ? ": wait" : "")"
        }
        let total = max(1, window.deadline.milliseconds(since: window.opened))
        let left = max(0, window.deadline.milliseconds.saturatingSubtracting(serverNow))
        let tenths = left / 100 + (left % 100 == 0 ? 0 : 1)
        let filled = Int(min(10, (Double(left) / Double(total) * 10).rounded(.up)))
        let bar = String(repeating: "█", count: min(10, filled)) + String(repeating: "░", count: max(0, 10 - filled))
        let style = mine ? theme.style(for: .good) : theme.holder
        return [Span(text, style), Span("  \(tenths / 10).\(tenths % 10) s ", CellStyle(bold: true)), Span(bar, style)]
    }

    /// A wait as a clock ("1:59", "1:30:00") while that reads at a glance; a server may let a
    /// seat wait for days (a local game waits a year), and "525599:48" reads as nothing.
    static func countdown(seconds: Int64) -> String {
        func twoDigits(_ value: Int64) -> String { value < 10 ? "0\(value)" : "\(value)" }
        let minutes = seconds / 60, hours = minutes / 60, days = hours / 24
        if days >= 2 { return "\(days) days" }
        if hours >= 1 { return "\(hours):\(twoDigits(minutes % 60)):\(twoDigits(seconds % 60))" }
        return "\(minutes):\(twoDigits(seconds % 60))"
    }
}

extension String {
    /// The text with its first letter upper-cased: "an ultra" → "An ultra".
    var capitalizedFirst: String { prefix(1).uppercased() + dropFirst() }
}
