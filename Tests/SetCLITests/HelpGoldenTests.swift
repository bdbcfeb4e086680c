import SetCLI
import Testing

/// Every help text, whole: a change to any word of what a user reads shows up here, and a new
/// subcommand needs its golden.
struct HelpGoldenTests {
    @Test func theOverview() {
        #expect(HelpText.overview(Commands.all, version: "0.1.0") == #"""
        setgame 0.1.0: the card game Set, for two players over TCP, in the terminal.

        usage: setgame <command> [arguments] [options]

        commands:
          play         Play Set now: starts a local server and a bot opponent, and joins as a player.
          serve        Host matches: players and spectators connect over TCP and speak newline-delimited JSON (Protocol.md).
          join         Join a match on a server as a player; run it again after a drop to take your seat back.
          watch        Watch a live match as a spectator; without a match name, pick one from a list.
          bot          Run a bot player that joins a server over the protocol, like any client.
          door         Be sshd's ForceCommand: one ssh player's menu or game, reached through serve --door-socket (README, "Open an ssh door").
          profile      Show a player's ratings per mode, games, wins, losses and set times on a server.
          history      List a player's finished games on a server, newest first (without NAME: your own).
          leaderboard  List a server's best established players of one mode.
          arena        List a server's arenas (timed tournaments), join one by NAME, open one with --create, or print one's standings with --results.
          nodes        List the servers (nodes) sharing a PostgreSQL store; drain one before removing it, forget one gone for good.
          replay       Print a match from its journal move by move, and check each revealed seed against its commitment.
          bench        Measure a server under load: duels of instant bots plus spectators over loopback. 'setgame bench rules' times the rules alone.
          rules        Print the rules of Set and of a duel, with the timings and points in force.
          cards        Print all 81 cards as they are drawn on a table of 12 in a terminal of a given size: a gallery of the symbols.

          setgame <command> --help   options of one command
          setgame --version          print the version

        """#)
    }

    /// A usage error names the problem, then the command's synopsis and how to get its help, in
    /// words the user can type as printed.
    @Test func aUsageErrorInACommand() throws {
        let error = try #require(throws: UsageError.self) { try Commands.parse(["join", "a:b:c"]) }
        #expect(HelpText.usageError(error, invocation: "swift run setgame") == #"""
        setgame: 'a:b:c' is not HOST[:PORT]
        usage: setgame join [HOST[:PORT]] [options]
        see 'swift run setgame join --help'

        """#)
    }

    @Test func aUsageErrorBeforeAnyCommand() throws {
        let error = try #require(throws: UsageError.self) { try Commands.parse(["frobnicate"]) }
        #expect(HelpText.usageError(error, invocation: "setgame") == #"""
        setgame: unknown command 'frobnicate'
        see 'setgame --help'

        """#)
    }

    @Test(arguments: Subcommand.allCases)
    func eachCommandsHelp(_ subcommand: Subcommand) throws {
        let golden = try #require(Self.goldens[subcommand], "no golden for \(subcommand)")
        #expect(HelpText.help(for: subcommand.spec) == golden)
    }

    static let goldens: [Subcommand: String] = [
        .play: #"""
            usage: setgame play [options]

            Play Set now: starts a local server and a bot opponent, and joins as a player.

              --level LEVEL                        the bot's level: easy (default), normal, hard or instant
              --solo                               play alone instead of against a bot
              --mode MODE                          the variant to play: classic, junior, chain, ultra
              --new                                start a new game even if an unfinished one is kept (it is resumed otherwise)
              --seed N                             deal from this seed (the same seed deals the same game)
              --daily                              today's deal (UTC), the same for everyone: solo, or against the bot --level names
              --name NAME                          your name (default: your login name)
              --against HOST[:PORT]                join that server instead of starting one: a duel with whoever waits there
              --casual                             unrated games: a duel between two accounts is rated otherwise
              --colorblind                         also show each card's colour as a letter
              --no-animation                       cards appear and leave without moving
              --claim-window-ms MS                 time a duel claimant has to pick three cards
              --second-chance-ms MS                the opponent's window after a failed or expired claim
              --deal-grace-ms MS                   the other player's risk-free window after a deal
              --set-points-max POINTS              points for a set taken the moment the table changed
              --set-points-min POINTS              the least a set is worth, however long it took
              --set-points-lost-per-second POINTS  points a set loses per second the table stood
              --wrong-set-penalty POINTS           penalty for three cards that are not a set
              --claim-timeout-penalty POINTS       penalty for letting a claim window run out or passing it
              --deal-penalty POINTS                penalty for dealing while a set was on the table
              --hint-cost POINTS                   cost of a hint
              --hints-in-duel on|off               whether a duel allows hints (solo always does)
              -h, --help                           show this help

            """#,
        .serve: #"""
            usage: setgame serve [options]

            Host matches: players and spectators connect over TCP and speak newline-delimited JSON (Protocol.md).

              --host ADDRESS                       IPv4 address to listen on (default 127.0.0.1; 0.0.0.0 for every interface)
              --port PORT                          TCP port (default 7380; 0 picks a free one and prints it)
              --data DIR                           where match journals are kept
              --store URL                          the accounts database: a SQLite file, or postgresql://USER@HOST:PORT/DB to share one (default: DIR/accounts/accounts.sqlite3, or memory)
              --empty-store                        start with an empty accounts store although DIR holds journals and its accounts.sqlite3 is missing
              --node NAME                          be one of several servers sharing the PostgreSQL --store (Protocol.md, "Several servers (nodes)")
              --advertise HOST:PORT                where clients reach this node; other nodes send them here (needs --node)
              --seed N                             deal game n from seed N+n-1 instead of at random (for demos and tests)
              --seat-wait-ms MS                    how long in all, per game, a seat may be away before it forfeits (default 120000)
              --lag-compensation-ms MS             most a duel claim is credited for its sender's round trip; 0 off (default 200)
              --max-connections N                  connections beyond this are refused (default 8192; fitted to the file descriptor limit)
              --max-matches N                      matches beyond this are refused (default 4096)
              --messages-per-second N              each connection's rate limit; bursts of twice as many (default 50)
              --connections-per-address N          connections one IP address may hold (default max-connections/16, at least 4)
              --matches-per-address N              live matches one IP address may have created (default max-matches/16, at least 4)
              --waiting-per-address N              of those, duels waiting for a second player (default 8)
              --unattended-per-address N           of those, matches whose players all left, waiting out their seat wait (default 16)
              --connect-rate-per-address N         new connections one IP address may open a second, bursts of twice as many (default 20)
              --placements-per-address N           new named matches a node places in the store for one IP address before a player starts them (default 8)
              --arena-players-per-address N        players one IP address may have in one arena at once (default 8)
              --accounts-per-address N             new accounts one IP address may make at once, then one a minute (default 20)
              --accounts-per-network N             new accounts one /24 (IPv4) or /48 (IPv6) may make at once, then one every 30 s (default 40)
              --renames-per-address N              renames one IP address may make at once, then one a minute (default 20)
              --proxy-from ADDR[,ADDR]             proxies (haproxy send-proxy-v2) whose connections begin with a PROXY v2 header: their players count by the address it carries
              --lobby-size N                       players the lobby lists at once (default 200)
              --lobby-per-address N                of those, from one IP address (default 20)
              --keep-finished N                    finished journals kept in DIR/finished, newest first (default 10000)
              --keep-finished-days D               finished journals older than this are deleted (default 30)
              --door-socket PATH                   also listen on this Unix socket for the ssh door (setgame door; README, "Open an ssh door")
              --door-user NAME[,NAME]              the users whose door may use --door-socket (default: the user serving)
              --log-format text|json               text lines, or one JSON object per line for log collectors (default text)
              --arena-schedule SPEC                keep arenas on a schedule, SPEC PREFIX=EVERY:MINUTES:MODE (e.g. hourly=60:10:classic): one every EVERY minutes, MINUTES long, named PREFIX-YYMMDDHHMM after its start (UTC), listed a period (at most an hour) ahead; repeatable
              --chat on|players|off                who may talk in a match: everyone, players only, or nobody (default on)
              --check                              check the options and the data folder, print what would be served, and exit
              --address HOST:PORT                  with --check: ask the server running there whether it is ready (listening, its store reachable, a node's lease held); exit 0 if it is
              --alive                              with --check --address: ask only whether the server answers, whatever its store says (a liveness probe)
              --claim-window-ms MS                 time a duel claimant has to pick three cards
              --second-chance-ms MS                the opponent's window after a failed or expired claim
              --deal-grace-ms MS                   the other player's risk-free window after a deal
              --set-points-max POINTS              points for a set taken the moment the table changed
              --set-points-min POINTS              the least a set is worth, however long it took
              --set-points-lost-per-second POINTS  points a set loses per second the table stood
              --wrong-set-penalty POINTS           penalty for three cards that are not a set
              --claim-timeout-penalty POINTS       penalty for letting a claim window run out or passing it
              --deal-penalty POINTS                penalty for dealing while a set was on the table
              --hint-cost POINTS                   cost of a hint
              --hints-in-duel on|off               whether a duel allows hints (solo always does)
              -h, --help                           show this help

            """#,
        .door: #"""
            usage: setgame door [options]

            Be sshd's ForceCommand: one ssh player's menu or game, reached through serve --door-socket (README, "Open an ssh door").

              --socket PATH          the server's door socket (default /run/setgame/door.sock)
              --state DIR            where each key's seat tokens are kept (default: the user's state folder)
              --guest-user NAME      the login that takes players without a key (default guest)
              --address HOST[:PORT]  how friends reach this door, for the commands it shows (default: the address and port sshd was reached on)
              -h, --help             show this help

            """#,
        .join: #"""
            usage: setgame join [HOST[:PORT]] [options]

            Join a match on a server as a player; run it again after a drop to take your seat back.

              HOST[:PORT]     the server (default 127.0.0.1:7380)
              --name NAME     your name (default: your login name)
              --match NAME    the match to join or create (default: the lobby, to challenge or be paired)
              --solo          a solo match
              --mode MODE     the variant of a match you create (joining, its own): classic, junior, chain, ultra
              --casual        unrated games: a duel between two accounts is rated otherwise
              --colorblind    also show each card's colour as a letter
              --no-animation  cards appear and leave without moving
              -h, --help      show this help

            """#,
        .watch: #"""
            usage: setgame watch [HOST[:PORT]] [MATCH] [options]

            Watch a live match as a spectator; without a match name, pick one from a list.

              HOST[:PORT]     the server (default 127.0.0.1:7380)
              MATCH           the match to watch
              --name NAME     your name in the spectators' chat (default: your login name)
              --arena NAME    follow that arena's top board, then the next (a TV; no MATCH)
              --colorblind    also show each card's colour as a letter
              --no-animation  cards appear and leave without moving
              -h, --help      show this help

            """#,
        .bot: #"""
            usage: setgame bot [HOST[:PORT]] [options]

            Run a bot player that joins a server over the protocol, like any client.

              HOST[:PORT]    the server (default 127.0.0.1:7380)
              --match NAME   the match to join (default: pair with whoever is waiting)
              --arena NAME   join the arena NAME instead: play each duel it deals until its standings are final
              --count N      with --arena: run N bots, named NAME-1 to NAME-N (default 1)
              --level LEVEL  easy, normal (default), hard or instant
              --name NAME    its name (default: bot-LEVEL)
              --seed N       seeds its decisions
              --mode MODE    the variant, for a match it creates or is paired into: classic, junior, chain, ultra
              --casual       unrated games: a duel between two accounts is rated otherwise
              -h, --help     show this help

            """#,
        .profile: #"""
            usage: setgame profile [HOST[:PORT]] [NAME] [options]

            Show a player's ratings per mode, games, wins, losses and set times on a server.

              HOST[:PORT]  the server (default 127.0.0.1:7380)
              NAME         the player
              --json       print the server's answer as one JSON object, for programs
              -h, --help   show this help

            """#,
        .history: #"""
            usage: setgame history [HOST[:PORT]] [NAME] [options]

            List a player's finished games on a server, newest first (without NAME: your own).

              HOST[:PORT]     the server (default 127.0.0.1:7380)
              NAME            the player (default: your own account on that server)
              --limit N       games per page, 1-50 (default 20)
              --after CURSOR  the page after the one that printed this cursor
              --json          print the server's answer as one JSON object, for programs
              -h, --help      show this help

            """#,
        .leaderboard: #"""
            usage: setgame leaderboard [HOST[:PORT]] [options]

            List a server's best established players of one mode.

              HOST[:PORT]     the server (default 127.0.0.1:7380)
              --mode MODE     whose ratings to list (default classic): classic, junior, chain, ultra
              --limit N       players per page, 1-50 (default 20)
              --after CURSOR  the page after the one that printed this cursor
              --json          print the server's answer as one JSON object, for programs
              -h, --help      show this help

            """#,
        .arena: #"""
            usage: setgame arena [HOST[:PORT]] [NAME] [options]

            List a server's arenas (timed tournaments), join one by NAME, open one with --create, or print one's standings with --results.

              HOST[:PORT]     the server (default 127.0.0.1:7380)
              NAME            the arena to join, or with --results the one whose standings to print
              --name NAME     joining: your name (default: your login name)
              --results       print NAME's standings: final once it is over, with the winners and each player's performance
              --create NAME   open an arena: 1-20 letters, digits, '-' or '_'
              --minutes M     with --create: how long it runs, 1-180
              --mode MODE     with --create: the variant (default classic): classic, junior, chain, ultra
              --casual        unrated games: a duel between two accounts is rated otherwise
              --starts-in S   with --create: seconds until it starts, 0-3600 (default 0)
              --json          print the server's answer as one JSON object, for programs
              --colorblind    also show each card's colour as a letter
              --no-animation  cards appear and leave without moving
              -h, --help      show this help

            """#,
        .nodes: #"""
            usage: setgame nodes [ACTION] [NAME] [options]

            List the servers (nodes) sharing a PostgreSQL store; drain one before removing it, forget one gone for good.

              ACTION       list (default), drain NAME, resume NAME, forget NAME, silence ENTRY, unsilence ENTRY or silenced
              NAME         the node drained, resumed or forgotten; or the chat entry silenced for every node ('address 203.0.113.9', 'ssh SHA256:…', 'account HEX')
              --store URL  the nodes' store: postgresql://USER@HOST:PORT/DB (a password from PGPASSWORD or ~/.pgpass)
              -h, --help   show this help

            """#,
        .replay: #"""
            usage: setgame replay [FILE] [options]

            Print a match from its journal move by move, and check each revealed seed against its commitment.

              FILE        a journal, e.g. ~/.local/state/setgame/matches/finished/NAME-....jsonl
              --speed X   replay in time: 1 is real time, 10 ten times as fast (default: at once)
              --cast OUT  write what a spectator saw (80×24, at the pace played) as an asciinema recording
              -h, --help  show this help

            """#,
        .bench: #"""
            usage: setgame bench [rules] [options]

            Measure a server under load: duels of instant bots plus spectators over loopback. 'setgame bench rules' times the rules alone.

              rules                                   time the pure rules instead
              --matches N                             concurrent duels (default 100)
              --spectators S                          spectators per match (default 2)
              --pace MS                               each bot acts about this often; 0 as fast as it can (default 500)
              --duration S                            seconds to measure (default 10)
              --json                                  one JSON object instead of a table
              --server HOST:PORT,...                  load these servers instead of starting one: duels go to each in turn, a redirect is followed
              --mode MODE                             the variant every duel plays: classic, junior, chain, ultra
              --abuse list|lobby|spectators|fds|chat  measure one duel alone, then while this abuse runs against the same server
              --relay                                 then carry the same lines over a bare epoll relay in the same rooms: the server's deliveries as a share of it
              --fairness                              claim races between a near and a far player, compensation on and off: win shares
              --races N                               with --fairness: races counted per setting (default 200)
              --delay-ms MS                           with --fairness: the far player's delay each way (default 80)
              --jitter-ms MS                          with --fairness: also race over a link this jittery, ± (default 20; 0 none)
              --lag-compensation-ms MS                with --fairness: the server's cap when on (default 200)
              --feign-lag-ms MS                       with --fairness: also race a near player answering pings this late (default 0: none)
              -h, --help                              show this help

            """#,
        .rules: #"""
            usage: setgame rules [options]

            Print the rules of Set and of a duel, with the timings and points in force.

              --claim-window-ms MS                 time a duel claimant has to pick three cards
              --second-chance-ms MS                the opponent's window after a failed or expired claim
              --deal-grace-ms MS                   the other player's risk-free window after a deal
              --set-points-max POINTS              points for a set taken the moment the table changed
              --set-points-min POINTS              the least a set is worth, however long it took
              --set-points-lost-per-second POINTS  points a set loses per second the table stood
              --wrong-set-penalty POINTS           penalty for three cards that are not a set
              --claim-timeout-penalty POINTS       penalty for letting a claim window run out or passing it
              --deal-penalty POINTS                penalty for dealing while a set was on the table
              --hint-cost POINTS                   cost of a hint
              --hints-in-duel on|off               whether a duel allows hints (solo always does)
              --mode MODE                          the variant whose rules to add: classic, junior, chain, ultra
              -h, --help                           show this help

            """#,
        .cards: #"""
            usage: setgame cards [options]

            Print all 81 cards as they are drawn on a table of 12 in a terminal of a given size: a gallery of the symbols.

              --size WxH    the terminal size to draw for, e.g. 80x24 (default: this terminal)
              --colorblind  also show each card's colour as a letter (NO_COLOR shows letters, not colours)
              -h, --help    show this help

            """#,
    ]
}
