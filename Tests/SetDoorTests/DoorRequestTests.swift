import Foundation
import SetClient
import SetDoor
import SetRules
import SetWire
import Testing

/// The ssh command a player gives the door, and what sshd tells it about them: pure, so every
/// shortcut and every refusal is checked without sshd.
@Suite struct DoorRequestTests {
    @Test func noCommandIsTheMenu() {
        #expect(DoorRequest.parse(nil) == .success(.menu))
        #expect(DoorRequest.parse("   ") == .success(.menu))
    }

    @Test func theShortcuts() {
        #expect(DoorRequest.parse("watch friday") == .success(.watch(match: "friday")))
        #expect(DoorRequest.parse("watch") == .success(.watch(match: nil)))
        #expect(DoorRequest.parse("join friday") == .success(.play(DoorGame(opponent: .anyone(match: "friday")))))
        #expect(DoorRequest.parse("join") == .success(.play(DoorGame(opponent: .anyone(match: nil)))))
        #expect(DoorRequest.parse("join --mode ultra") == .success(.play(DoorGame(opponent: .anyone(match: nil), variant: .ultra))))
        #expect(DoorRequest.parse("play --mode ultra") == .success(.play(DoorGame(opponent: .bot(.easy), variant: .ultra))))
        #expect(DoorRequest.parse("play --level hard") == .success(.play(DoorGame(opponent: .bot(.hard)))))
        #expect(DoorRequest.parse("play --solo --mode junior") == .success(.play(DoorGame(opponent: .nobody, variant: .junior))))
    }

    /// Anything else gets the usage line: there is no shell behind the door to reach.
    @Test(arguments: ["bash", "sh -c id", "/bin/sh", "scp -t /tmp", "internal-sftp", "watch a b", "watch ../etc",
                      "join friday; bash", "join $(id)", "play --mode chess", "play --level instant", "play --shell",
                      "play --mode", "join --solo", "rsync --server ."])
    func anythingElseIsRefused(_ command: String) throws {
        let error = try #require(throws: DoorUsageError.self) { try DoorRequest.parse(command).get() }
        #expect(error.line.hasSuffix(DoorRequest.usage))
        #expect(!error.line.contains("\n"))
    }

    /// `ssh-keygen -lf` (OpenSSH 9.2) on this very key printed
    /// `256 SHA256:2JrayI8q1lIJ9K6sVsLruHHkcwc3+nnr+iG9noAwsbI no comment (ED25519)`.
    @Test func theFingerprintIsWhatSshKeygenPrints() {
        let info = "publickey ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAINHL1LSkGPblqSwD6XT8OKAkaHXyIL3C5siu+vGK3hBb\n"
        #expect(DoorIdentity.fingerprint(authInfo: info) == "SHA256:2JrayI8q1lIJ9K6sVsLruHHkcwc3+nnr+iG9noAwsbI")
        #expect(DoorIdentity.fingerprint(authInfo: "password\n") == nil)
        #expect(DoorIdentity.fingerprint(authInfo: "") == nil)
    }

    @Test func theAddressIsTheFirstFieldOfSshConnection() {
        #expect(DoorIdentity.address(sshConnection: "203.0.113.5 51234 192.0.2.1 2222") == "203.0.113.5")
        #expect(DoorIdentity.address(sshConnection: "2001:db8::7 51234 2001:db8::1 2222") == "2001:db8::7")
        #expect(DoorIdentity.address(sshConnection: nil) == nil)
        #expect(DoorIdentity.address(sshConnection: "evil\nline 1 2 3") == nil)
    }

    @Test func aKeysNameIsTheSameEachTime() {
        let name = DoorIdentity.name(fingerprint: "SHA256:uNiVztksCsDhcc0u9e8BujQXVUpKZIDTMczCvj3tD2s")
        #expect(name == "key-uNiVzt")
    }

    @Test func theStandingShortcuts() {
        #expect(DoorRequest.parse("profile") == .success(.standing(.profile(name: nil))))
        #expect(DoorRequest.parse("profile ann") == .success(.standing(.profile(name: "ann"))))
        #expect(DoorRequest.parse("history") == .success(.standing(.history)))
        #expect(DoorRequest.parse("leaderboard") == .success(.standing(.leaderboard(.classic))))
        #expect(DoorRequest.parse("leaderboard --mode ultra") == .success(.standing(.leaderboard(.ultra))))
        for refused in ["profile a b", "history ann", "leaderboard --level hard", "profile \u{7}"] {
            #expect(throws: DoorUsageError.self, "\(refused)") { try DoorRequest.parse(refused).get() }
        }
    }

    /// The command a game is kept by is one the door parses back to the same game.
    @Test func aGamesCommandAsksForItAgain() throws {
        let games = [DoorGame(opponent: .anyone(match: nil)), DoorGame(opponent: .anyone(match: "friday"), variant: .ultra),
                     DoorGame(opponent: .bot(.hard), variant: .junior), DoorGame(opponent: .nobody, variant: .chain)]
        for game in games { #expect(DoorRequest.parse(game.command) == .success(.play(game)), "\(game.command)") }
        #expect(games.map(\.summary) == ["your quick duel", "your duel in friday, UltraSet", "your duel against the hard bot, Junior",
                                         "your solo game, Set-Chain"])
    }

    /// Commands shown to friends start with the door's own ssh command, from what sshd saw or
    /// from `--address`.
    @Test func theDoorsAddressIsWhereSshdWasReached() {
        let seen = "198.51.100.7 51234 203.0.113.5 2222"
        #expect(DoorAddress.of(user: "set", sshConnection: seen, configured: nil)?.command("join duel-1")
                == "ssh -t -p 2222 set@203.0.113.5 join duel-1")
        #expect(DoorAddress.of(user: "guest", sshConnection: "198.51.100.7 51234 203.0.113.5 22", configured: nil)?.command
                == "ssh guest@203.0.113.5")
        #expect(DoorAddress.of(user: "set", sshConnection: "2001:db8::7 5 2001:db8::1 2222", configured: nil)?.command
                == "ssh -p 2222 set@[2001:db8::1]")
        #expect(DoorAddress.of(user: "set", sshConnection: seen, configured: "play.example.org")?.command == "ssh -p 2222 set@play.example.org")
        #expect(DoorAddress.of(user: "set", sshConnection: seen, configured: "play.example.org:22")?.command == "ssh set@play.example.org")
        #expect(DoorAddress.of(user: "set", sshConnection: nil, configured: nil) == nil)
        #expect(DoorAddress.split("bad host") == nil && DoorAddress.split("h:0") == nil && DoorAddress.split("h:x") == nil)
    }

    /// A command that needs a terminal and came without one (a stock `ssh` given a command asks
    /// for none) is told the same command with `-t`; the standings need none.
    @Test func withoutATerminalThePlayerIsToldWhatToType() {
        let address = DoorAddress(user: "set", host: "127.0.0.1", port: 29222)
        #expect(DoorRequest.noTerminal("join  duel-6", address: address)
                == ["setgame: this needs a terminal, which ssh gives a command only with -t; type:", "  ssh -t -p 29222 set@127.0.0.1 join duel-6"])
        #expect(DoorRequest.noTerminal(nil, address: address).last == "  ssh -t -p 29222 set@127.0.0.1")
        #expect(DoorRequest.noTerminal("watch", address: nil) == ["setgame: this needs a terminal, which ssh gives a command only with -t: add -t to your ssh command."])
        let terminals = [DoorRequest.menu, .watch(match: nil), .play(DoorGame(opponent: .nobody))].map(\.needsTerminal)
        #expect(terminals == [true, true, true])
        #expect(!DoorRequest.standing(.history).needsTerminal)
    }

    /// The menu a door game returns to says the key's rating in that game's variant as it is now.
    @Test func theMenuAfterAGameSaysTheNewRating() {
        let info = AccountInfo(.profile, ["ratings": .object(["junior": .object([
            "rating": .int(1512), "provisional": .bool(true), "games": .int(3)])])])
        #expect(DoorSession.ratingNote(info, variant: .junior) == "Your Junior rating: 1512? (3 rated games).")
        #expect(DoorSession.ratingNote(info, variant: .classic) == nil)
    }

    /// A key's name and the game it left waiting survive the session, in its own folder.
    @Test func aKeyKeepsItsNameAndItsWaitingGame() throws {
        let folder = NSTemporaryDirectory() + "door-keep-\(UInt32.random(in: 0...UInt32.max))"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let keep = DoorKeep(folder: folder)
        #expect(keep.name == nil && keep.game == nil)
        keep.name = "ann"
        keep.game = DoorGame(opponent: .bot(.normal), variant: .ultra)
        #expect(DoorKeep(folder: folder).name == "ann")
        #expect(DoorKeep(folder: folder).game == DoorGame(opponent: .bot(.normal), variant: .ultra))
        keep.game = nil
        #expect(DoorKeep(folder: folder).game == nil)
    }

    static func session(fingerprint: String?, folder: String) -> DoorSession {
        DoorSession(options: DoorOptions(), identity: DoorIdentity(fingerprint: fingerprint, address: "198.51.100.7"),
                    name: fingerprint == nil ? "guest-4821" : "key-2Bi5wK", folder: folder, base: folder,
                    address: DoorAddress(user: fingerprint == nil ? "guest" : "set", host: "203.0.113.5", port: 2222), report: { _ in [] })
    }

    /// What the client is told through the door: the door's commands, no log path; a key's seat
    /// comes back by ssh, and a guest is told theirs is not kept.
    @Test func theClientIsToldTheDoorsWords() {
        let folder = NSTemporaryDirectory() + "door-words-\(UInt32.random(in: 0...UInt32.max))"
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let key = Self.session(fingerprint: "SHA256:2JrayI8q1lIJ9K6sVsLruHHkcwc3+nnr+iG9noAwsbI", folder: folder)
        let duel = key.clientOptions(.play(DoorGame(opponent: .anyone(match: "friday"))), colours: .full)
        // A stock ssh given a command asks for no terminal: every command shown says -t.
        #expect(duel.door == "ssh -t -p 2222 set@203.0.113.5")
        #expect(duel.watchCommand == "ssh -t -p 2222 set@203.0.113.5 watch friday")
        #expect(!duel.showsLogPath)
        #expect(duel.rejoinHint == "ssh in again to come back" && duel.quitNote == nil)
        #expect(duel.inviteNote == "No ssh key? guest@ in place of set@.")
        #expect(duel.takesSuggestedName, "key-… was chosen by nobody: a taken one is swapped")
        try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        DoorKeep(folder: folder).name = "fayzer"
        let named = Self.session(fingerprint: "SHA256:2JrayI8q1lIJ9K6sVsLruHHkcwc3+nnr+iG9noAwsbI", folder: folder)
        let chosen = named.clientOptions(.play(DoorGame(opponent: .anyone(match: nil))), colours: .full)
        #expect(chosen.name == "fayzer" && !chosen.takesSuggestedName, "a chosen name is not swapped for another")
        let guest = Self.session(fingerprint: nil, folder: folder).clientOptions(.play(DoorGame(opponent: .anyone(match: nil))), colours: .none)
        #expect(guest.quitNote == "A guest's seat is not kept: leaving gives this game up.")
        #expect(guest.door == "ssh -t -p 2222 guest@203.0.113.5" && guest.noColor)
        #expect(guest.inviteNote == nil, "a guest's invitation lets anyone in already")
    }

    /// A bot duel waits on a start box for the player's first key, as `play`'s does; a duel
    /// against a person or a solo game starts at once.
    @Test func aBotDuelWaitsForTheFirstKey() {
        let folder = NSTemporaryDirectory() + "door-start-\(UInt32.random(in: 0...UInt32.max))"
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let key = Self.session(fingerprint: "SHA256:2JrayI8q1lIJ9K6sVsLruHHkcwc3+nnr+iG9noAwsbI", folder: folder)
        #expect(key.clientOptions(.play(DoorGame(opponent: .bot(.hard))), colours: .full).startBoxTitle == "You against the hard bot")
        #expect(key.clientOptions(.play(DoorGame(opponent: .nobody)), colours: .full).startBoxTitle == nil)
        #expect(key.clientOptions(.play(DoorGame(opponent: .anyone(match: "friday"))), colours: .full).startBoxTitle == nil)
    }

    /// A quick duel or a solo game asked for gives up a kept seat whose game is over; the menu's
    /// way back to the game left waiting, a named match and a bot duel keep it.
    @Test func aNewGameGivesUpAKeptSeatWhoseGameIsOver() {
        let folder = NSTemporaryDirectory() + "door-afresh-\(UInt32.random(in: 0...UInt32.max))"
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let key = Self.session(fingerprint: "SHA256:2JrayI8q1lIJ9K6sVsLruHHkcwc3+nnr+iG9noAwsbI", folder: folder)
        let quick = DoorRequest.play(DoorGame(opponent: .anyone(match: nil)))
        #expect(key.clientOptions(quick, colours: .full).startsAfreshAfterAFinishedGame)
        #expect(key.clientOptions(.play(DoorGame(opponent: .nobody)), colours: .full).startsAfreshAfterAFinishedGame)
        #expect(!key.clientOptions(quick, colours: .full, resuming: true).startsAfreshAfterAFinishedGame)
        #expect(!key.clientOptions(.play(DoorGame(opponent: .anyone(match: "friday"))), colours: .full).startsAfreshAfterAFinishedGame)
        #expect(!key.clientOptions(.play(DoorGame(opponent: .bot(.easy))), colours: .full).startsAfreshAfterAFinishedGame)
    }

    /// The Enter typed after the menu's digit is dropped by a game that starts at once (a duel
    /// coming back would take it as Set!); a bot duel's start box takes it to start.
    @Test func aGameChosenByItsDigitDropsTheEnterTypedAfterIt() {
        let folder = NSTemporaryDirectory() + "door-enter-\(UInt32.random(in: 0...UInt32.max))"
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let key = Self.session(fingerprint: "SHA256:2JrayI8q1lIJ9K6sVsLruHHkcwc3+nnr+iG9noAwsbI", folder: folder)
        let duel = DoorRequest.play(DoorGame(opponent: .anyone(match: "friday")))
        #expect(key.clientOptions(duel, colours: .full, afterShortcut: true).dropsLeadingEnter)
        #expect(key.clientOptions(.play(DoorGame(opponent: .nobody)), colours: .full, afterShortcut: true).dropsLeadingEnter)
        #expect(!key.clientOptions(duel, colours: .full).dropsLeadingEnter, "chosen with Enter, or a shortcut's command")
        #expect(!key.clientOptions(.play(DoorGame(opponent: .bot(.easy))), colours: .full, afterShortcut: true).dropsLeadingEnter)
    }
}

/// A login waits for no round trip it need not: the door's client sends its join as the
/// connection opens, with the door's first line, not after the server's welcome.
@Suite struct DoorJoinTests {
    @Test func everyGameOfTheDoorJoinsAsTheConnectionOpens() {
        let folder = NSTemporaryDirectory() + "door-join-\(UInt32.random(in: 0...UInt32.max))"
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let requests: [DoorRequest] = [.play(DoorGame(opponent: .nobody)), .play(DoorGame(opponent: .anyone(match: "friday"))),
                                       .play(DoorGame(opponent: .bot(.hard))), .watch(match: "friday")]
        for fingerprint in ["SHA256:2JrayI8q1lIJ9K6sVsLruHHkcwc3+nnr+iG9noAwsbI", nil] {
            let door = DoorRequestTests.session(fingerprint: fingerprint, folder: folder)
            for request in requests {
                var session = ClientSession(door.clientOptions(request, colours: .full))
                let effects = session.connected(at: 0)
                guard case .send(.join(let join))? = effects.first, effects.count == 1 else {
                    Issue.record("\(request): the connection opened with \(effects), not the join")
                    continue
                }
                #expect(join.name == (fingerprint == nil ? "guest-4821" : "key-2Bi5wK"))
            }
        }
    }

    @Test func watchingWithoutAMatchStillWaitsToChoose() {
        let door = DoorRequestTests.session(fingerprint: nil, folder: NSTemporaryDirectory() + "door-join-none")
        var session = ClientSession(door.clientOptions(.watch(match: nil), colours: .full))
        #expect(session.connected(at: 0).isEmpty, "the list of matches comes first; no join is sent")
    }
}

/// The door's house bots are accounts: one key per level, kept in the door's state folder.
@Suite struct DoorHouseBotTests {
    @Test func eachLevelKeepsOneAccountKeyForEveryKey() throws {
        let base = NSTemporaryDirectory() + "door-bots-\(UInt32.random(in: 0...UInt32.max))"
        try FileManager.default.createDirectory(atPath: base, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: base) }
        let hard = try #require(Door.houseBotAccount("bot-hard", in: base))
        #expect(Door.houseBotAccount("bot-hard", in: base) == hard, "the next session's bot is the same account")
        let easy = try #require(Door.houseBotAccount("bot-easy", in: base))
        #expect(easy != hard)
    }

    @Test func withoutAWritableStateFolderTheBotIsAGuest() {
        #expect(Door.houseBotAccount("bot-hard", in: "/nonexistent/setgame-door") == nil)
    }
}
