"""Arenas over the real binary: opened, listed and read back by `setgame arena`, and kept
through a kill -9 of the server (the arena row is committed before the answer is sent); an
account that joined it finds it in `setgame profile`; a duel under way when the server is killed
with -9 is finished after the restart and counts once."""
import json, os, sqlite3, subprocess, sys, tempfile, time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from e2e_support import BIN, Connection, fail, Server  # noqa: E402


def arena(port, *arguments, status=0):
    result = subprocess.run([BIN, "arena", f"127.0.0.1:{port}", *arguments], capture_output=True, text=True, timeout=20)
    if result.returncode != status:
        fail(f"setgame arena {' '.join(arguments)} exited {result.returncode}: {result.stdout}{result.stderr}")
    return result.stdout


data = tempfile.mkdtemp(prefix="setgame-arena-")
server = Server(data, log=os.path.join(data, "serve.log"))
opened = subprocess.run([BIN, "arena", f"127.0.0.1:{server.port}", "--create", "friday", "--minutes", "10", "--mode", "junior",
                         "--starts-in", "120"], capture_output=True, text=True, timeout=20)
if opened.returncode != 0 or opened.stdout.strip() != "Opened friday: junior rated, 10 minutes, starts in 2 minutes.":
    fail(f"--create: {opened.stdout}{opened.stderr}")
again = subprocess.run([BIN, "arena", f"127.0.0.1:{server.port}", "--create", "friday", "--minutes", "5"], capture_output=True, text=True, timeout=20)
if again.returncode != 1 or "exists" not in again.stderr:
    fail(f"a second friday: {again.returncode} {again.stderr}")
listed = arena(server.port)
if not listed.startswith("friday  junior rated  starts in "):
    fail(f"the list: {listed}")
server.kill()

server = Server(data, log=os.path.join(data, "serve.log"))
shown = json.loads(arena(server.port, "friday", "--results", "--json"))
if shown["type"] != "arena_results" or shown["arena"] != "friday" or shown["variant"] != "junior" or shown["standings"] != []:
    fail(f"after kill -9: {shown}")
listed = json.loads(arena(server.port, "--json"))
if [a["arena"] for a in listed["arenas"]] != ["friday"]:
    fail(f"after kill -9, listed: {listed}")
arena(server.port, "nothing", "--results", status=1)
# An account that joined it finds it in its profile, printed by `setgame profile`.
ann = Connection(f"127.0.0.1:{server.port}")
ann.send({"type": "arena_join", "arena": "friday", "name": "ann", "account": "a1" * 32, "id": "j"})
joined = ann.until(lambda m: m.get("id") == "j")
if joined["type"] != "arena":
    fail(f"ann's arena_join: {joined}")
profile = subprocess.run([BIN, "profile", f"127.0.0.1:{server.port}", "ann"], capture_output=True, text=True, timeout=20)
lines = profile.stdout.splitlines()
if profile.returncode != 0 or "  arenas, newest first:" not in lines or not any(
        line.endswith(" friday               junior  rated  starting 1/1  0 pts, 0 games") for line in lines):
    fail(f"ann's profile: {profile.stdout}{profile.stderr}")
ann.close()
server.stop()
db = sqlite3.connect(f"file:{os.path.join(data, 'accounts', 'accounts.sqlite3')}?mode=ro", uri=True)
rows = db.execute("SELECT name, variant, rated FROM arenas").fetchall()
players = db.execute("SELECT arena, name, account_id IS NOT NULL FROM arena_players").fetchall()
db.close()
if rows != [("friday", "junior", 1)]:
    fail(f"the store holds {rows}")
if players != [("friday", "ann", 1)]:
    fail(f"the store's arena players: {players}")

# A kill -9 in the middle of an arena's duel: the duel resumes from its journal on the restarted
# server, is finished there, and counts once; the standings equal a recount of the stored games.
server = Server(data, log=os.path.join(data, "serve.log"))
arena(server.port, "--create", "monday", "--minutes", "10")
KEYS = {"ann": "a1" * 32, "bob": "b2" * 32}
players = {}
for name in ("ann", "bob"):
    me = Connection(f"127.0.0.1:{server.port}")
    me.send({"type": "arena_join", "arena": "monday", "name": name, "account": KEYS[name], "id": name})
    players[name] = me
for name, me in players.items():
    pairing = me.until(lambda m: m["type"] == "arena_pairing")
    me.send({"type": "join", "name": name, "match": pairing["match"], "token": pairing["token"], "account": KEYS[name]})
    players[name] = (me, pairing)
for name, (me, pairing) in players.items():
    me.until(lambda m: m["type"] == "snapshot")
for me, _ in players.values():
    if me.view["state"] != "playing":
        me.until(lambda m: m["type"] == "event" and m["kind"] == "game_started")
server.kill()

server = Server(data, log=os.path.join(data, "serve.log"))
back = {}
for name, (_, pairing) in players.items():
    me = Connection(f"127.0.0.1:{server.port}")
    me.send({"type": "join", "name": name, "match": pairing["match"], "token": pairing["token"], "account": KEYS[name]})
    seated = me.until(lambda m: m["type"] in ("snapshot", "error"))
    if seated["type"] == "error" or seated["match"] != "arena-monday-1":
        fail(f"{name}'s seat in the arena duel after kill -9: {seated}")
    back[name] = me
back["ann"].send({"type": "resign"})
back["bob"].until(lambda m: m["type"] == "event" and m["kind"] == "game_over")
watcher = Connection(f"127.0.0.1:{server.port}")
watcher.send({"type": "arena_join", "arena": "monday", "name": "wat", "watch": True, "id": "w"})
# Counted: both have played it, and it is no longer under way (they are free, and paired again).
counted = watcher.until(lambda m: m["type"] == "arena" and len(m["standings"]) == 2 and all(e["games"] == 1 for e in m["standings"])
                        and "arena-monday-1" not in [b["match"] for b in m["boards"]])
results = json.loads(arena(server.port, "monday", "--results", "--json"))
server.stop()


def recount(db, name):
    """The standings from the stored games alone: a win 2, a draw 1, doubled on a streak of two wins."""
    table = {}
    rows = db.execute("SELECT first, second, outcome FROM arena_games WHERE arena = ? AND outcome IS NOT NULL ORDER BY counted", (name,))
    for first, second, outcome in rows.fetchall():
        for me, other in ((first, second), (second, first)):
            entry = table.setdefault(me, {"score": 0, "games": 0, "streak": 0})
            won = outcome == ("first" if me == first else "second")
            drew = outcome == "draw"
            fire = entry["streak"] >= 2
            entry["score"] += (2 if won else 1 if drew else 0) * (2 if fire else 1)
            entry["games"] += 1
            entry["streak"] = entry["streak"] + 1 if won else 0
    return {player: (entry["score"], entry["games"]) for player, entry in table.items()}


db = sqlite3.connect(f"file:{os.path.join(data, 'accounts', 'accounts.sqlite3')}?mode=ro", uri=True)
ends = db.execute("SELECT number, outcome FROM arena_games WHERE arena = 'monday' AND outcome IS NOT NULL").fetchall()
recorded = db.execute("SELECT COUNT(*) FROM games WHERE match = 'arena-monday-1'").fetchone()[0]
expected = recount(db, "monday")
db.close()
if ends != [(1, "second")] or recorded != 1:
    fail(f"after kill -9 mid-duel the store holds the ends {ends} and the records {recorded}")
shown = {e["name"]: (e["score"], e["games"]) for e in results["standings"]}
if shown != expected or expected != {"bob": (2, 1), "ann": (0, 1)}:
    fail(f"the standings {shown} are not the recount {expected}")
if {e["name"]: (e["score"], e["games"]) for e in counted["standings"]} != expected:
    fail(f"the arena's pushed standings {counted['standings']} are not the recount {expected}")

# Arenas on a schedule: `serve --arena-schedule` makes the next slot's arena, listed before it starts.
scheduled = tempfile.mkdtemp(prefix="setgame-arena-schedule-")
server = Server(scheduled, log=os.path.join(scheduled, "serve.log"), arguments=["--arena-schedule", "tick=10:5:junior"])
for _ in range(200):
    ticks = [a for a in json.loads(arena(server.port, "--json"))["arenas"] if a["arena"].startswith("tick-")]
    if any(a["state"] == "starting" for a in ticks):
        break
    time.sleep(0.1)
server.stop()
if not ticks or not all(a["variant"] == "junior" and len(a["arena"]) == len("tick-2611291400") for a in ticks) \
        or not any(a["state"] == "starting" for a in ticks):
    fail(f"the scheduled arenas listed: {ticks}")
print("arena: ok")
