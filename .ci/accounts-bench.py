"""Accounts at scale (a benchmark, not a test): writes an accounts log of ACCOUNTS accounts and
GAMES rated games into a fresh data folder, starts `setgame serve` on it, and reports how long the
start took, the server's memory, and the latency of `profile` and `history` (p50, p99), asked from
20 connections at once, each within the rate limit.

    SETGAME=.build/debug/setgame python3 .ci/accounts-bench.py [ACCOUNTS [GAMES]]
"""
import json, os, random, socket, subprocess, sys, tempfile, threading, time

BIN = os.environ.get("SETGAME", ".build/debug/setgame")
accounts = int(sys.argv[1]) if len(sys.argv) > 1 else 10_000
games = int(sys.argv[2]) if len(sys.argv) > 2 else 100_000
random.seed(1)
data = tempfile.mkdtemp(prefix="setgame-accounts-bench-")
os.makedirs(os.path.join(data, "accounts"), mode=0o700)
path = os.path.join(data, "accounts", "accounts.jsonl")
line = lambda record: json.dumps(record, separators=(",", ":"), sort_keys=True) + "\n"
with open(path, "w") as log:
    for i in range(accounts):
        log.write(line({"type": "account", "id": i, "identity": "key:%064x" % i, "name": "p%d" % i, "wall": 1}))
    ratings = {}
    for g in range(games):
        a = random.randrange(accounts)
        b = (a + 1 + random.randrange(accounts - 1)) % accounts
        ra, rb = ratings.get(a, (1500.0, 350.0)), ratings.get(b, (1500.0, 350.0))
        na, nb = (ra[0] + 8, max(45.0, ra[1] * 0.97)), (rb[0] - 8, max(45.0, rb[1] * 0.97))
        ratings[a], ratings[b] = na, nb
        rating = lambda r: {"r": repr(r[0]), "rd": repr(r[1]), "vol": "0.06"}
        seat = lambda who, r, n, sets: {"account": who, "name": "p%d" % who, "points": sets * 20, "sets": sets,
                                        "setTimes": [random.randrange(1000, 20000) for _ in range(sets)],
                                        "before": rating(r), "after": rating(n)}
        log.write(line({"type": "game", "match": "m%d" % g, "game": 1, "commitment": "%064x" % g, "mode": "duel",
                        "variant": "classic", "rated": True, "outcome": "win", "reason": "no_sets_left", "winner": 0,
                        "players": [seat(a, ra, na, 14), seat(b, rb, nb, 11)], "endedAt": 1000, "durationMs": 300000,
                        "wall": 1795632343, "journal": "m%d.jsonl" % g}))
print(f"log: {accounts} accounts, {games} games, {os.path.getsize(path) >> 20} MiB")

began = time.time()
server = subprocess.Popen([BIN, "serve", "--port", "0", "--data", data], stdout=subprocess.PIPE,
                          stderr=open(os.path.join(data, "serve.log"), "w"), text=True)
port = int(server.stdout.readline().strip().rsplit(":", 1)[1])
started = time.time() - began
rss = next(l.split()[1] for l in open(f"/proc/{server.pid}/status") if l.startswith("VmRSS"))
latencies, lock = [], threading.Lock()


def ask(count):
    connection = socket.create_connection(("127.0.0.1", port))
    reader = connection.makefile("rb")
    reader.readline()
    mine = []
    for i in range(count):
        kind = "profile" if i % 2 else "history"
        sent = time.perf_counter()
        connection.sendall((json.dumps({"type": kind, "name": "p%d" % random.randrange(accounts)}) + "\n").encode())
        reply = json.loads(reader.readline())
        mine.append(time.perf_counter() - sent)
        if reply["type"] == "error":
            raise SystemExit(f"{kind}: {reply}")
        time.sleep(0.03)  # within 50 messages a second
    with lock:
        latencies.extend(mine)


threads = [threading.Thread(target=ask, args=(100,)) for _ in range(20)]
for thread in threads:
    thread.start()
for thread in threads:
    thread.join()
latencies.sort()
print(f"start {started:.2f} s, RSS {int(rss) >> 10} MiB, profile/history p50 {latencies[len(latencies) // 2] * 1000:.2f} ms, "
      f"p99 {latencies[int(len(latencies) * 0.99)] * 1000:.2f} ms ({len(latencies)} requests)")
server.terminate()
server.wait()
