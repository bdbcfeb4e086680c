"""A profile's arenas over the real binary, timed: one account in ARENAS finished arenas of
PLAYERS players and GAMES games each (rows written straight into the SQLite store), its `profile`
asked ROUNDS times with the final places not kept (each arena recounted from its games) and kept
(read as written), alternating. Prints the times and their ratio; checks only what is settled:
every answer lists min(ARENAS, 9) of them (beside the running arena p0 joined to be made), and
the kept ones say what was kept.
Usage: SETGAME=… python3 arena_profile_bench.py [ARENAS PLAYERS GAMES ROUNDS]"""
import os, sqlite3, subprocess, sys, tempfile, time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from e2e_support import BIN, Connection, fail, Server  # noqa: E402

arenas, players, games, rounds = (int(a) for a in (sys.argv[1:] or ["10", "200", "2000", "3"]))
data = tempfile.mkdtemp(prefix="setgame-arena-profile-")
server = Server(data, log=os.path.join(data, "serve.log"))
made = subprocess.run([BIN, "arena", f"127.0.0.1:{server.port}", "--create", "seed", "--minutes", "1"], capture_output=True, text=True, timeout=20)
if made.returncode != 0:
    fail(f"--create: {made.stdout}{made.stderr}")
p0 = Connection(f"127.0.0.1:{server.port}")
p0.send({"type": "arena_join", "arena": "seed", "name": "p0", "account": "a1" * 32, "id": "j"})
if p0.until(lambda m: m.get("id") == "j")["type"] != "arena":
    fail("p0's arena_join")

db = sqlite3.connect(os.path.join(data, "accounts", "accounts.sqlite3"), timeout=30)
(account,) = db.execute("SELECT account_id FROM arena_players WHERE name = 'p0'").fetchone()
ended = int(time.time() * 1000) - 3_600_000
for a in range(arenas):
    name = f"big{a}"
    db.execute("INSERT INTO arenas (name, variant, rated, starts_at, ends_at, created_wall, creator_address) VALUES (?, 'classic', 1, ?, ?, 0, 'x')",
               (name, ended - 600_000 - a, ended - a))
    db.executemany("INSERT INTO arena_players (arena, name, provisional, bot, account_id) VALUES (?, ?, 0, 0, ?)",
                   [(name, f"p{p}", account if p == 0 else None) for p in range(players)])
    db.executemany("INSERT INTO arena_games (arena, number, first, second, tokens, outcome, counted) VALUES (?, ?, ?, ?, 't u', 'first', ?)",
                   [(name, g, f"p{g % players}", f"p{(g * 7 + 1) % players}", g) for g in range(1, games + 1)])
db.commit()
listed = min(arenas, 9)  # the seed arena, running, is the newest of the 10 a profile lists


def timed(kept):
    db.execute("UPDATE arena_players SET final_rank = ?, final_score = ?, final_games = ? WHERE arena LIKE 'big%'",
               (1, 2, 3) if kept else (None, None, None))
    db.commit()
    start = time.perf_counter()
    for _ in range(5):
        answer = p0.request({"type": "profile", "name": "p0"})
        shown = [a for a in answer.get("arenas", []) if a["arena"].startswith("big")]
        if answer["type"] != "profile" or len(shown) != listed or (kept and any((a["rank"], a["score"], a["games"]) != (1, 2, 3) for a in shown)):
            fail(f"the profile ({'kept' if kept else 'recounted'}): {answer}")
    return (time.perf_counter() - start) / 5 * 1000


for round in range(rounds):
    load = os.getloadavg()[0]
    recounted, kept = timed(False), timed(True)
    print(f"round {round}: recounted {recounted:.2f} ms, kept {kept:.2f} ms per profile ({recounted / kept:.0f}x), load {load:.2f}")
p0.close()
server.stop()
print(f"arena-profile-bench: ok ({arenas} arenas of {players} players and {games} games)")
