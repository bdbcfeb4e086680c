"""An arena played to its end by bots over two nodes on one PostgreSQL, checked three ways: the
standings each bot saw last, `setgame arena --results` through each node, and a recount of the
stored games (psql, recounted here with the scoring of Protocol.md "Arenas"). Waits are for
results (the processes' exits, the answers), with generous deadlines for a loaded machine."""
import json, os, subprocess, sys, tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from e2e_support import BIN, STARTED, fail, free_port, throwaway_postgres  # noqa: E402

ARENA = "cibots"
BOTS_PER_NODE = 6
# One minute of arena, the duels under way then, and a loaded 2-core machine: only a hang waits this long.
BOTS_DEADLINE_S = int(os.environ.get("ARENA_BOTS_DEADLINE_S", "600"))

pg_url = throwaway_postgres()
work = tempfile.mkdtemp(prefix="setgame-arena-bots-")


def node(name, host):
    port = free_port(host)
    proc = subprocess.Popen(
        [BIN, "serve", "--host", host, "--port", str(port), "--data", os.path.join(work, name), "--store", pg_url,
         "--node", name, "--advertise", f"{host}:{port}",
         # Every bot comes from this machine's one address, past the 8 players one address may have in an arena.
         "--arena-players-per-address", str(2 * BOTS_PER_NODE)],
        stdout=subprocess.PIPE, stderr=open(os.path.join(work, name + ".log"), "a"), text=True)
    STARTED.append(proc)
    line = proc.stdout.readline()
    if "serving on" not in line:
        fail(f"node {name} did not start: {line!r} (log: {work}/{name}.log)")
    return f"{host}:{port}"


def arena(address, *arguments):
    result = subprocess.run([BIN, "arena", address, *arguments], capture_output=True, text=True, timeout=60)
    if result.returncode != 0:
        fail(f"setgame arena {address} {' '.join(arguments)} exited {result.returncode}: {result.stdout}{result.stderr}")
    return result.stdout


def recount(rows, ratings):
    """The standings from the stored games, in the order they were counted (Protocol.md "Arenas")."""
    players = {name: {"name": name, "score": 0, "games": 0, "wins": 0, "streak": 0} for name in ratings}
    for first, second, outcome in rows:
        for name, mine in ((first, "first"), (second, "second")):
            if outcome == "draw":
                result = "draw"
            elif outcome in ("first", "second"):
                result = "win" if outcome == mine else "loss"
            elif outcome.startswith("absent:"):
                result = "loss" if outcome in ("absent:both", f"absent:{mine}") else "win"
            else:
                fail(f"a stored outcome this recount does not know: {outcome}")
            player = players[name]
            points = {"win": 2, "draw": 1, "loss": 0}[result] * (2 if player["streak"] >= 2 else 1)
            player["score"] += points
            player["games"] += 1
            player["wins"] += result == "win"
            player["streak"] = player["streak"] + 1 if result == "win" else 0
    ordered = sorted(players.values(), key=lambda p: (-p["score"], p["games"], -(ratings[p["name"]] or 1500), p["name"]))
    return [(rank + 1, p["name"], p["score"], p["games"], p["wins"], p["streak"], p["streak"] >= 2) for rank, p in enumerate(ordered)]


def table(standings):
    return [(e["rank"], e["name"], e["score"], e["games"], e["wins"], e["streak"], e["fire"]) for e in standings]


a = node("a", "127.0.0.1")
b = node("b", "127.0.0.2")
arena(a, "--create", ARENA, "--minutes", "1", "--starts-in", "5")
bots = []
for address, prefix in ((a, "a"), (b, "b")):
    state = os.path.join(work, "state-" + prefix)
    out, err = (open(os.path.join(work, f"bots-{prefix}.{kind}"), "w") for kind in ("out", "err"))
    bots.append((subprocess.Popen([BIN, "bot", address, "--arena", ARENA, "--count", str(BOTS_PER_NODE), "--name", prefix,
                                   "--level", "instant", "--seed", "7"],
                                  stdout=out, stderr=err, env=dict(os.environ, XDG_STATE_HOME=state)), prefix))
    STARTED.append(bots[-1][0])
finished = {}
for proc, prefix in bots:
    said = lambda kind: open(os.path.join(work, f"bots-{prefix}.{kind}")).read()
    try:
        proc.wait(timeout=BOTS_DEADLINE_S)
    except subprocess.TimeoutExpired:
        proc.kill()
        fail(f"the bots did not finish within {BOTS_DEADLINE_S} s (logs: {work}): {said('err')[-2000:]}")
    if proc.returncode != 0:
        fail(f"setgame bot exited {proc.returncode}: {said('out')}{said('err')}")
    for line in said("out").splitlines():
        if f" finished {ARENA}: rank " in line:
            finished[line.split(" ", 1)[0]] = line
names = sorted(f"{p}-{n}" for p in "ab" for n in range(1, BOTS_PER_NODE + 1))
if sorted(finished) != names:
    fail(f"each bot says where it finished once the arena is over; heard from {sorted(finished)}")

results = [json.loads(arena(address, ARENA, "--results", "--json")) for address in (a, b)]
# Times are each node's own clock, and `paused` follows the bots' connections closing: the rest is the standings.
settled = lambda r: (r["state"], r["winners"], [(e["name"], e["score"], e["games"], e["wins"], e["streak"], e["fire"], e.get("performance"))
                                                 for e in r["standings"]])
if settled(results[0]) != settled(results[1]):
    fail(f"the nodes disagree:\n{results[0]}\n{results[1]}")
final = results[0]
if final["state"] != "finished" or sorted(e["name"] for e in final["standings"]) != names:
    fail(f"the final standings: {final}")
if not all(e["bot"] for e in final["standings"]) or sum(e["games"] for e in final["standings"]) < 2 * len(names):
    fail(f"a dozen bots marked as bots, each with a game at least: {final}")

# The stored games: each arena duel's end as it was counted, and the game record of each played one.
psql = lambda query: [line.split("|") for line in subprocess.run(["psql", pg_url, "-AtF|", "-c", query], check=True,
                                                                    capture_output=True, text=True).stdout.splitlines()]
ratings = {name: (int(rating) if rating else None) for name, rating in psql(f"SELECT name, rating FROM arena_players WHERE arena = '{ARENA}'")}
games = psql(f"SELECT number, first, second, outcome FROM arena_games WHERE arena = '{ARENA}' ORDER BY counted")
if any(outcome == "" for _, _, _, outcome in games):
    fail(f"a duel is still uncounted after the final standings: {games}")
# A played duel's outcome is its game record's: the winner's seat in `games`, whose seat 0 is `first`.
records = {match: (winner, seat0) for match, winner, seat0 in psql(
    "SELECT g.match, COALESCE(g.winner::text, 'draw'), s.name FROM games g JOIN game_seats s ON s.game_id = g.id AND s.seat = 0 "
    f"WHERE g.match LIKE 'arena-{ARENA}-%'")}
for number, first, second, outcome in games:
    if outcome.startswith("absent:"):
        continue
    match = f"arena-{ARENA}-{number}"
    if match not in records:
        fail(f"{match} counted {outcome} without a stored game")
    winner, seat0 = records[match]
    stored = "draw" if winner == "draw" else ("first" if (seat0 == first) == (winner == "0") else "second")
    if stored != outcome:
        fail(f"{match}: counted {outcome}, its game record says {stored} (winner seat {winner}, seat 0 {seat0})")
recounted = recount([(first, second, outcome) for _, first, second, outcome in games], ratings)
if table(final["standings"]) != recounted:
    fail(f"the standings differ from the recount of the stored games:\n{table(final['standings'])}\n{recounted}")
print(f"arena-bots: ok ({len(games)} duels, winner {final['winners']})")
