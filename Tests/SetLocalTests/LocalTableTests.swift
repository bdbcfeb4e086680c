import Foundation
import SetBot
import SetNet
import SetRules
import SetServer
import SetTerminal
import SetTestSupport
import SetWire
import Synchronization
import Testing
@testable import SetLocal

/// `setgame play`'s table over real loopback sockets: its match seats only the player and the bot
/// it was started for, a stranger is turned away, and a resumed kept game still seats its bot.
@Suite(.serialized) struct LocalTableTests {
    @Test func onlyThePlayerAndItsBotTakeTheLocalSeats() throws {
        let state = "/tmp/setgame-local-\(UInt32.random(in: 0...UInt32.max))"
        defer { _ = try? FileManager.default.removeItem(atPath: state) }
        let kept = KeptGame(stateDirectory: state, mode: .duel, player: "ann")
        let store = SeatTokenStore(directory: state)

        let first = try LocalTable.open(kept, store: store, config: ServerConfig(), log: .silent)
        #expect(!first.resumed)
        #expect(store.token(for: kept.tokenKey) == first.playerToken, "the client joins with the token play made")
        // A stranger naming the match, before the player and after.
        #expect(try join(first, #"{"type":"join","name":"eve","match":"duel"}"#).contains(#""code":"match_full""#))
        // The player joins as the client does: with its token and no match name.
        let annConnection = try connect(first)
        defer { annConnection.socket.close() }
        let ann = try ask(annConnection, #"{"type":"join","name":"ann","token":"\#(first.playerToken)"}"#)
        #expect(ann.contains(#""type":"joined""#) && ann.contains(#""seat":0"#) && ann.contains(first.playerToken))
        #expect(ann.contains(#""resumed":false"#), "a first seat is no resume, though it came with its token")
        let firstBot = seatBot(kept, port: first.port, token: first.botToken)
        #expect(firstBot.token == first.botToken)
        #expect(try join(first, #"{"type":"join","name":"eve","match":"duel"}"#).contains(#""code":"match_full""#))
        #expect(try join(first, #"{"type":"join","name":"eve","match":"duel","token":"0123456789abcdef0123456789abcdef"}"#)
            .contains(#""type":"error""#))
        // Watching stays open to anyone: that is what the start box's watch command is for.
        #expect(try join(first, #"{"type":"join","role":"spectator","name":"eve","match":"duel"}"#).contains(#""type":"joined""#))
        firstBot.bot.stop()
        first.stop()

        // The same command again: the kept game comes back, its bot takes its own seat back.
        let second = try LocalTable.open(kept, store: store, config: ServerConfig(), log: .silent)
        #expect(second.resumed && second.playerToken == first.playerToken && second.botToken == first.botToken)
        #expect(try join(second, #"{"type":"join","name":"eve","match":"duel"}"#).contains(#""code":"match_full""#))
        let secondBot = seatBot(kept, port: second.port, token: second.botToken)
        #expect(secondBot.token == first.botToken)
        let back = try join(second, #"{"type":"join","name":"ann","token":"\#(first.playerToken)"}"#)
        #expect(back.contains(#""resumed":true"#) && back.contains(#""seat":0"#))
        secondBot.bot.stop()
        second.stop()
    }

    /// The leave box says the game is kept: so it is when the player leaves before anyone moved
    /// and its bot goes too. Both seats come from one address, as a client dealing itself a duel
    /// does (whose match goes once both leave, unmoved), but this match is reserved for its two
    /// tokens: it keeps its deal for the next `setgame play`.
    @Test func aDealtGameLeftBeforeAnyMoveIsStillKept() throws {
        let state = "/tmp/setgame-local-\(UInt32.random(in: 0...UInt32.max))"
        defer { _ = try? FileManager.default.removeItem(atPath: state) }
        let kept = KeptGame(stateDirectory: state, mode: .duel, player: "ann")
        let store = SeatTokenStore(directory: state)
        let first = try LocalTable.open(kept, store: store, config: ServerConfig(), log: .silent)
        let ann = try connect(first)
        _ = try ask(ann, #"{"type":"join","name":"ann","token":"\#(first.playerToken)"}"#)
        let eve = try connect(first)
        defer { eve.socket.close() }
        #expect(try ask(eve, #"{"type":"join","role":"spectator","name":"eve","match":"duel"}"#).contains(#""type":"joined""#))
        let bot = seatBot(kept, port: first.port, token: first.botToken)
        _ = try eve.awaitEvent("the deal") { if case .gameStarted = $0 { true } else { false } }
        let dealt = try #require(eve.view?.table)
        ann.socket.close()
        _ = try eve.awaitEvent("ann gone") { $0.isPresence(of: .first, present: false) }
        bot.bot.stop()
        _ = try eve.awaitEvent("the bot gone") { $0.isPresence(of: .second, present: false) }
        first.stop()

        let second = try LocalTable.open(kept, store: store, config: ServerConfig(), log: .silent)
        defer { second.stop() }
        #expect(second.resumed, "the unmoved deal was kept")
        let back = try connect(second)
        defer { back.socket.close() }
        _ = try ask(back, #"{"type":"join","name":"ann","token":"\#(first.playerToken)"}"#, until: #""type":"snapshot""#)
        #expect(back.view?.table == dealt, "the same twelve cards")
    }

    @Test func theReservedMatchIsOfTheKeptGamesModeAndVariant() throws {
        let state = "/tmp/setgame-local-\(UInt32.random(in: 0...UInt32.max))"
        defer { _ = try? FileManager.default.removeItem(atPath: state) }
        let kept = KeptGame(stateDirectory: state, mode: .solo, variant: .ultra, player: "sol")
        let table = try LocalTable.open(kept, store: SeatTokenStore(directory: state), config: ServerConfig(), log: .silent)
        defer { table.stop() }
        // The client's first join carries its token and nothing of the match: the reservation says which.
        let client = try connect(table)
        defer { client.socket.close() }
        let snapshot = try ask(client, #"{"type":"join","name":"sol","token":"\#(table.playerToken)"}"#, until: #""type":"snapshot""#)
        #expect(snapshot.contains(#""mode":"solo""#) && snapshot.contains(#""match":"solo""#) && snapshot.contains(#""variant":"ultra""#))
    }

    /// A player who calls itself after the bot keeps the name; the bot, joining second, takes
    /// another, since the table seats no two players under one name.
    @Test func aPlayerNamedAfterTheBotLeavesTheBotAnotherName() throws {
        let state = "/tmp/setgame-local-\(UInt32.random(in: 0...UInt32.max))"
        defer { _ = try? FileManager.default.removeItem(atPath: state) }
        let kept = KeptGame(stateDirectory: state, mode: .duel, player: "Bot-Easy")
        let table = try LocalTable.open(kept, store: SeatTokenStore(directory: state), config: ServerConfig(), log: .silent)
        defer { table.stop() }
        let player = try connect(table)
        defer { player.socket.close() }
        #expect(try ask(player, #"{"type":"join","name":"Bot-Easy","token":"\#(table.playerToken)"}"#).contains(#""type":"joined""#))
        #expect(try join(table, #"{"type":"join","name":"bot-easy","token":"\#(table.botToken)"}"#).contains(#""code":"name_taken""#))
        let name = LocalGame.botName(.easy, beside: "Bot-Easy")
        #expect(name == "bot-easy2" && LocalGame.botName(.easy, beside: "ann") == "bot-easy")
        #expect(try join(table, #"{"type":"join","name":"\#(name)","token":"\#(table.botToken)"}"#).contains(#""type":"joined""#))
    }

    /// `play --daily` on two machines on the same UTC date: two servers, each in its own state
    /// folder, deal the same first table under the day's commitment; the kept game is the day's own.
    @Test func twoDailyServersOnTheSameDateDealTheSameFirstTable() throws {
        let deal = try #require(DailyDeal(year: 2026, month: 11, day: 25))
        var options = PlayOptions()
        options.daily = true
        options.solo = true
        var firstTables: [String] = []
        for player in ["ann", "bob"] {
            let state = "/tmp/setgame-local-\(UInt32.random(in: 0...UInt32.max))"
            defer { _ = try? FileManager.default.removeItem(atPath: state) }
            let kept = KeptGame(stateDirectory: state, mode: .solo, daily: deal, player: player)
            #expect(kept.dataDirectory.hasSuffix("/play/solo-daily-2026-11-25-\(player)"))
            #expect(kept.dataDirectory != KeptGame(stateDirectory: state, mode: .solo, player: player).dataDirectory)
            let table = try LocalTable.open(kept, store: SeatTokenStore(directory: state),
                                            config: LocalGame.serverConfig(options, daily: deal), log: .silent)
            defer { table.stop() }
            let client = try connect(table)
            defer { client.socket.close() }
            let snapshot = try ask(client, #"{"type":"join","name":"\#(player)","token":"\#(table.playerToken)"}"#, until: #""type":"snapshot""#)
            #expect(snapshot.contains(#""commitment":"\#(deal.commitment)""#), "\(snapshot)")
            let dealt = try #require(snapshot.firstRange(of: #/"table":\[[0-9,]+\]/#), "\(snapshot)")
            firstTables.append(String(snapshot[dealt]))
        }
        #expect(firstTables.count == 2 && firstTables[0] == firstTables[1])
        // Another day, another deal.
        let state = "/tmp/setgame-local-\(UInt32.random(in: 0...UInt32.max))"
        defer { _ = try? FileManager.default.removeItem(atPath: state) }
        let other = try #require(DailyDeal(year: 2026, month: 11, day: 26))
        let table = try LocalTable.open(KeptGame(stateDirectory: state, mode: .solo, daily: other, player: "ann"),
                                        store: SeatTokenStore(directory: state),
                                        config: LocalGame.serverConfig(options, daily: other), log: .silent)
        defer { table.stop() }
        let client = try connect(table)
        defer { client.socket.close() }
        let snapshot = try ask(client, #"{"type":"join","name":"ann","token":"\#(table.playerToken)"}"#, until: #""type":"snapshot""#)
        #expect(snapshot.contains(#""commitment":"\#(other.commitment)""#) && !snapshot.contains(firstTables[0]))
    }

    /// Leaving a daily game prints what a friend checks a claimed time with: the seed, its
    /// commitment, and the finished game's journal (not one `--new` threw away).
    @Test func leavingADailyGamePrintsItsSeedCommitmentAndJournal() throws {
        let deal = try #require(DailyDeal(year: 2026, month: 11, day: 25))
        let state = "/tmp/setgame-local-\(UInt32.random(in: 0...UInt32.max))"
        defer { _ = try? FileManager.default.removeItem(atPath: state) }
        let kept = KeptGame(stateDirectory: state, mode: .solo, daily: deal, player: "ann")
        let unplayed = LocalGame.dailyLines(deal, kept: kept, command: "setgame")
        #expect(unplayed == ["setgame: the daily deal of 2026-11-25 (UTC): seed 6887018760937541278",
                             "  commitment a1a42dea0b952ab5a28d5b3dbae783acf69cc76a135df35c3b9d5dbdb5abf698",
                             "  check it: printf 'setgame:%s' 6887018760937541278 | sha256sum"])
        let finished = kept.dataDirectory + "/finished"
        try FileManager.default.createDirectory(atPath: finished, withIntermediateDirectories: true)
        let journal = "\(finished)/solo-1795600000-5000.jsonl"
        #expect(FileManager.default.createFile(atPath: journal, contents: Data("{}\n".utf8),
                                              attributes: [.modificationDate: Date(timeIntervalSince1970: 1_000)]))
        #expect(FileManager.default.createFile(atPath: "\(finished)/solo-abandoned-1795600001.jsonl", contents: Data("{}\n".utf8)))
        let played = LocalGame.dailyLines(deal, kept: kept, command: "setgame")
        #expect(played.dropLast() == unplayed[...])
        #expect(played.last == "  the finished game, move by move: setgame replay \(journal)")
    }

    /// Personal records survive a round trip through their private file, beside the ordinary
    /// kept game (the daily deals keep their own, beside it).
    @Test func recordsRoundTripThroughTheirFile() throws {
        let state = "/tmp/setgame-local-\(UInt32.random(in: 0...UInt32.max))"
        defer { _ = try? FileManager.default.removeItem(atPath: state) }
        let kept = KeptGame(stateDirectory: state, mode: .solo, player: "ann")
        let daily = KeptGame(stateDirectory: state, mode: .solo, daily: DailyDeal(year: 2026, month: 11, day: 25), player: "ann")
        #expect(kept.recordsFile == kept.dataDirectory + "/records" && daily.recordsFile == kept.dataDirectory + "/records-daily")
        #expect(RecordsFile.load(kept.recordsFile) == PersonalRecords())
        var records = PersonalRecords()
        records.record(SoloGameTally(score: -5, setTimesMs: [2_500, 7_000]))
        #expect(RecordsFile.save(records, to: kept.recordsFile) == nil)
        #expect(RecordsFile.load(kept.recordsFile) == records)
        let mode = try #require(FileManager.default.attributesOfItem(atPath: kept.recordsFile)[.posixPermissions] as? Int)
        #expect(mode == 0o600)
        #expect(try FileManager.default.contentsOfDirectory(atPath: kept.dataDirectory) == ["records"], "no temporary left behind")
        records.record(SoloGameTally(score: 40, setTimesMs: [1_200]))
        #expect(RecordsFile.save(records, to: kept.recordsFile) == nil)
        #expect(RecordsFile.load(kept.recordsFile) == records)
    }


    /// A bot the server turns away says why, to a listener that may come after the refusal (the
    /// client listens once its loop exists), and tries again when let go (the client does that
    /// before its seat would forfeit). A seated bot that is held off, let go or stopped is no news.
    @Test func aBotTheServerTurnsAwaySaysWhy() throws {
        let state = "/tmp/setgame-local-\(UInt32.random(in: 0...UInt32.max))"
        defer { _ = try? FileManager.default.removeItem(atPath: state) }
        let kept = KeptGame(stateDirectory: state, mode: .duel, player: "ann")
        let table = try LocalTable.open(kept, store: SeatTokenStore(directory: state), config: ServerConfig(), log: .silent)
        defer { table.stop() }
        // Without its seat's token the bot is a stranger to the reserved match.
        let stranger = LocalBot(botOptions(kept, port: table.port, token: nil)) { _ in Issue.record("a stranger was seated") }
        let heard = Mutex<[String]>([])
        let told = DispatchSemaphore(value: 0)
        stranger.start()
        // The refusal comes on the bot's thread, before this listens or after: told either way.
        stranger.listen { reason in
            heard.withLock { $0.append(reason) }
            told.signal()
        }
        #expect(told.wait(timeout: .now() + 60) == .success)
        stranger.hold(false)
        #expect(told.wait(timeout: .now() + 60) == .success, "let go, it tries again and is told again")
        stranger.hold(true)
        stranger.hold(false)
        #expect(told.wait(timeout: .now() + 60) == .success, "held off and let go, the same")
        stranger.stop()
        let reasons = heard.withLock { $0 }
        #expect(reasons.count == 3 && reasons.allSatisfy { $0.contains("refused to seat it") && $0.contains("(match_full)") }, "\(reasons)")

        let seated = seatBot(kept, port: table.port, token: table.botToken)
        let news = Mutex<[String]>([])
        seated.bot.listen { reason in news.withLock { $0.append(reason) } }
        seated.bot.hold(true)
        seated.bot.hold(false)
        seated.bot.stop()
        #expect(news.withLock { $0 }.isEmpty, "held, let go and stopped: each end was ours")
    }
    /// Starts the local bot as `play` does and waits until the server seats it.
    private func seatBot(_ kept: KeptGame, port: UInt16, token: String) -> (bot: LocalBot, token: String?) {
        let seated = DispatchSemaphore(value: 0)
        let joined = Mutex<String?>(nil)
        let bot = LocalBot(botOptions(kept, port: port, token: token)) { token in
            joined.withLock { $0 = token }
            kept.saveBot(level: .easy, token: token)
            seated.signal()
        }
        bot.start()
        seated.wait()
        return (bot, joined.withLock { $0 })
    }

    /// The easy bot of `kept`'s match on the table at `port`, as `play` makes it.
    private func botOptions(_ kept: KeptGame, port: UInt16, token: String?) -> BotOptions {
        var options = BotOptions()
        options.port = port
        options.match = kept.match
        options.level = .easy
        options.name = "bot-easy"
        options.token = token
        return options
    }

    /// Sends one join line on a new connection and returns the answer (`joined` or `error`).
    private func join(_ table: LocalTable, _ line: String) throws -> String {
        let client = try connect(table)
        defer { client.socket.close() }
        return try ask(client, line)
    }

    private func connect(_ table: LocalTable) throws -> TestClient {
        // Only a safety net: the server answers a join at once.
        try TestClient(port: table.port, receiveTimeoutMs: 60_000)
    }

    /// Sends `line` as written and returns the first line in answer holding `marker`, or else the
    /// answer to a join (`joined` or `error`).
    private func ask(_ client: TestClient, _ line: String, until marker: String? = nil) throws -> String {
        client.sendRaw(line + "\n")
        return try client.waitFor(marker ?? "the answer to a join") { _ in
            let answer = client.lastLine ?? ""
            let wanted = marker.map { answer.contains($0) } ?? (answer.contains(#""type":"joined""#) || answer.contains(#""type":"error""#))
            return wanted ? answer : nil
        }
    }
}
