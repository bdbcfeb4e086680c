"""Accounts at scale (a benchmark, not a test; issue 25): writes an accounts log of ACCOUNTS
accounts and GAMES rated duels (25 set times each, as a full game has) straight into a fresh data
folder, then
  1. starts `setgame serve` on it with no snapshot (the whole log parsed; it writes the snapshot),
  2. stops it and starts it again (the snapshot read, nothing after it to parse),
  2b. stops it, appends 49,999 games to the log (the most a crash leaves after a snapshot) and
     starts it again,
  3. asks `profile`, `history` and `leaderboard` alone for 10 s (the baseline), then
  4. runs `setgame bench --server` (DUELS duels at human pace, 500 ms, two spectators each) against
     that second server, while twenty accounts play rated games among themselves (a game every
     50 ms at most), and meanwhile asks `profile`, `history` and `leaderboard` from CLIENTS
     connections, each QPS a second, one question at a time, timing each answer from the send to the whole line back,
and reports each start's time (process start to its first line, "listening on ..."), the server's
RSS after the start and its peak while loaded, and the answers' p50/p99/max.

    SETGAME=.build/release/setgame python3 .ci/accounts-bench.py [ACCOUNTS [GAMES [DUELS]]]

LAG_MS sets the server's --lag-compensation-ms (default: the server's default, 200).

The server runs on core 0 and everything else on core 1 (as `setgame bench` pins its own server).
"""
import json, os, random, shutil, signal, socket, subprocess, sys, tempfile, threading, time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "e2e"))
from e2e_support import Player, find_set  # noqa: E402

BIN = os.path.abspath(os.environ.get("SETGAME", ".build/release/setgame"))
accounts = int(sys.argv[1]) if len(sys.argv) > 1 else 100_000
games = int(sys.argv[2]) if len(sys.argv) > 2 else 1_000_000
duels = int(sys.argv[3]) if len(sys.argv) > 3 else 1_000
CLIENTS, QPS, SECONDS = 4, 25, int(os.environ.get("SECONDS_LOADED", "30"))
PIN = os.cpu_count() and os.cpu_count() >= 2
REALTIME = os.environ.get("REALTIME", "1") == "1" and hasattr(os, "SCHED_FIFO")
random.seed(1)
data = tempfile.mkdtemp(prefix="setgame-accounts-bench-")
os.makedirs(os.path.join(data, "accounts"), mode=0o700)
path = os.path.join(data, "accounts", "accounts.jsonl")

ratings = [None] * accounts
seat = ('{"account":%d,"after":{"r":"%r","rd":"%r","vol":"0.06"},"before":{"r":"%r","rd":"%r","vol":"0.06"},'
        '"name":"p%d","points":%d,"sets":%d,"setTimes":[%s]}')


def write_games(log, first, count):
    for g in range(first, first + count):
        a = random.randrange(accounts)
        b = (a + 1 + random.randrange(accounts - 1)) % accounts
        ra, rb = ratings[a] or (1500.0, 350.0), ratings[b] or (1500.0, 350.0)
        na, nb = (ra[0] + 8.25, max(45.0, ra[1] * 0.97)), (rb[0] - 8.25, max(45.0, rb[1] * 0.97))
        ratings[a], ratings[b] = na, nb
        times = lambda n: ",".join(str(random.randrange(1000, 20000)) for _ in range(n))
        log.write('{"commitment":"%064x","durationMs":300000,"endedAt":%d,"game":1,"journal":"duel-%d.jsonl","match":"duel-%d",'
                  '"mode":"duel","outcome":"win","players":[%s,%s],"rated":true,"reason":"no_sets_left","type":"game",'
                  '"variant":"classic","wall":%d,"winner":0}\n'
                  % (random.getrandbits(256), g * 1000, g, g, seat % (a, na[0], na[1], ra[0], ra[1], a, 28, 14, times(14)),
                     seat % (b, nb[0], nb[1], rb[0], rb[1], b, 22, 11, times(11)), 1795000000 + g))


began = time.time()
with open(path, "w") as log:
    for i in range(accounts):
        log.write('{"id":%d,"identity":"key:%064x","name":"p%d","type":"account","wall":1795000000}\n' % (i, i, i))
    write_games(log, 0, games)
print(f"log: {accounts:,} accounts, {games:,} games, {os.path.getsize(path) >> 20} MiB, written in {time.time() - began:.0f} s", flush=True)


def status(pid, field):
    return int(next(l.split()[1] for l in open(f"/proc/{pid}/status") if l.startswith(field))) >> 10


def start():
    command = ([BIN] if not PIN else ["taskset", "-c", "0", BIN]) + [
        "serve", "--port", "0", "--data", data, "--max-connections", "100000", "--messages-per-second", "1000000",
        "--connections-per-address", "100000", "--matches-per-address", "100000", "--max-matches", "100000",
        "--connect-rate-per-address", "1000000"] + (["--lag-compensation-ms", os.environ["LAG_MS"]] if "LAG_MS" in os.environ else [])
    began = time.time()
    server = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=open(os.path.join(data, "serve.log"), "a"), text=True)
    port = int(server.stdout.readline().strip().rsplit(":", 1)[1])
    return server, port, time.time() - began


def stop(server):
    server.send_signal(signal.SIGTERM)
    server.wait()


server, port, cold = start()
print(f"start without a snapshot: {cold:.2f} s, RSS {status(server.pid, 'VmRSS')} MiB, peak {status(server.pid, 'VmHWM')} MiB", flush=True)
stop(server)
server, port, warm = start()
rss = status(server.pid, "VmRSS")
print(f"start from the snapshot: {warm:.2f} s, RSS {rss} MiB, peak {status(server.pid, 'VmHWM')} MiB", flush=True)
# A crash leaves at most 49,999 records after the last snapshot: a running server writes one in the
# background at every 50,000th. Those are appended behind a stopped server's back, as a kill -9 would leave them.
stop(server)
with open(path, "a") as log:
    write_games(log, games, 49_999)
server, port, crashed = start()
print(f"start with 49,999 records after the snapshot (the most a crash leaves): {crashed:.2f} s, RSS {status(server.pid, 'VmRSS')} MiB, "
      f"peak {status(server.pid, 'VmHWM')} MiB", flush=True)

stopping = threading.Event()


def ask(seed, latencies):
    """One thread asks over CLIENTS connections in turn, one question at a time: no other Python
    thread holds the interpreter lock when an answer arrives (with 20 threads, waiting for the
    lock alone added milliseconds to each answer)."""
    rng = random.Random(seed)
    if REALTIME:
        # This thread only: the asker is the measuring instrument, and on two cores it shares
        # core 1 with the bench's 4,000 connections; at real-time priority its wake-ups are not
        # queued behind the bench, so what is timed is the server's answer, not the scheduler.
        os.sched_setscheduler(0, os.SCHED_FIFO, os.sched_param(10))
    connections = []
    for _ in range(CLIENTS):
        connection = socket.create_connection(("127.0.0.1", port))
        connection.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        reader = connection.makefile("rb")
        reader.readline()
        connections.append((connection, reader))
    next_at = time.perf_counter()
    turn = 0
    while not stopping.is_set():
        connection, reader = connections[turn % CLIENTS]
        turn += 1
        kind = rng.choice(("profile", "history", "leaderboard"))
        question = {"type": kind, "variant": "classic"} if kind == "leaderboard" else {"type": kind, "name": "p%d" % rng.randrange(accounts)}
        line = (json.dumps(question) + "\n").encode()
        sent = time.perf_counter()
        connection.sendall(line)
        reply = reader.readline()
        latencies[kind].append(time.perf_counter() - sent)
        if b'"type":"error"' in reply:
            raise SystemExit(f"{kind}: {reply}")
        next_at += 1 / (QPS * CLIENTS)
        time.sleep(max(0, next_at - time.perf_counter()))


def summary(latencies):
    for kind, values in latencies.items():
        values.sort()
        if values:
            print(f"  {kind}: p50 {values[len(values) // 2] * 1000:.2f} ms, p99 {values[int(len(values) * 0.99)] * 1000:.2f} ms, "
                  f"max {values[-1] * 1000:.2f} ms ({len(values)} answers)")


def farm(played):
    """Rated games landing all the while (issue 32 item 7: each one made the next leaderboard rank
    every account again): twenty accounts (what one address may make at once) play each other in
    turn, one set taken and a resignation, a game every 50 ms at most."""
    keys = ["%064x" % (0xfa4 + i) for i in range(20)]
    pairs = [(a, b) for a in range(20) for b in range(a + 1, 20)]
    number = 0
    while not stopping.is_set():
        a, b = pairs[number % len(pairs)]
        match = "rated-%d" % number
        number += 1
        began = time.perf_counter()
        first, second = Player(port, "r%d" % a, match, account=keys[a]), Player(port, "r%d" % b, match, account=keys[b])
        cards = find_set(second.view["table"])
        if cards:  # a table without a set (a few in a hundred) ends aborted, unrated
            first.send({"type": "claim"})
            for card in cards:
                first.send({"type": "select", "card": card})
            second.until(lambda m: m["type"] == "event" and m["kind"] == "set_taken")
        first.send({"type": "resign"})
        over = second.until(lambda m: m["type"] == "event" and m["kind"] == "game_over")
        played.append(bool(over.get("ratings")))
        first.close(), second.close()
        time.sleep(max(0, 0.05 - (time.perf_counter() - began)))


alone = {"profile": [], "history": [], "leaderboard": []}
asker = threading.Thread(target=ask, args=(1, alone))
asker.start()
time.sleep(10)
stopping.set()
asker.join()
print(f"asked alone, 10 s{' (the asking thread at real-time priority)' if REALTIME else ''}:")
summary(alone)
stopping.clear()
loaded = {"profile": [], "history": [], "leaderboard": []}
played = []
farmer = threading.Thread(target=farm, args=(played,))
bench = subprocess.Popen((["taskset", "-c", "1"] if PIN else []) + [
    BIN, "bench", "--server", f"127.0.0.1:{port}", "--matches", str(duels), "--spectators", "2", "--pace", "500",
    "--duration", str(SECONDS)], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
time.sleep(5)  # the duels connect and start first
asker = threading.Thread(target=ask, args=(2, loaded))
asker.start()
farmer.start()
time.sleep(max(1, SECONDS - 8))
loaded_rss = status(server.pid, "VmRSS")
stopping.set()
asker.join()
farmer.join()
report = bench.communicate()[0]
peak = status(server.pid, "VmHWM")
stop(server)
print("setgame bench --server:", *[line for line in report.splitlines() if line.strip()][:14], sep="\n  ")
print(f"asked during the bench and {len(played)} games between accounts ({sum(played)} rated), {max(1, SECONDS - 8)} s:")
summary(loaded)
print(f"server RSS while loaded {loaded_rss} MiB, peak {peak} MiB")
shutil.rmtree(data)
