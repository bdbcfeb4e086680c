"""Accounts at scale on both stores (a benchmark, not a test; issue 34). Writes an accounts log of
the version before the database (accounts.jsonl: ACCOUNTS accounts, GAMES rated duels with 25 set
times each) once, then for each store (SQLite, then PostgreSQL on loopback):
  1. starts `setgame serve --store …` on a fresh data folder holding that log: the first start
     imports it (timed: process start to its first line, "serving on …"), and the database's
     size is read,
  2. ROUNDS times: stops the server and starts it again (the start time, and the RSS at rest),
     asks `profile`, `history` and `leaderboard` (and `ping`, the same round trip without the
     store) alone for 10 s, then again while
     `setgame bench --server` plays DUELS duels at human pace (500 ms, two spectators each; PACE
     sets it, 0 for bots as fast as the server answers: the server saturated) and
     twenty accounts play rated games among themselves (a game every 50 ms at most),
  3. on PostgreSQL, in each round, the same loaded window once more with `pg_ctl restart -m fast`
     in its middle: the duels' action p99 then, against the window without.
It prints each figure per round and one table of ranges at the end.

    SETGAME=.build/release/setgame python3 .ci/accounts-bench.py [ACCOUNTS [GAMES [DUELS]]]

STORES=sqlite,postgresql picks the stores; PACE the duels' pace in ms (default 500); ROUNDS (default 3); SECONDS_LOADED (default 30);
LAG_MS sets the server's --lag-compensation-ms. The throwaway PostgreSQL is `.ci/postgres.sh`'s
(as the `postgres` user when run as root), stopped and deleted at the end, also on ^C.

The server and PostgreSQL run on core 0, the load and the asking on core 1.
"""
import atexit, json, multiprocessing, os, random, shutil, signal, socket, subprocess, sys, tempfile, threading, time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "e2e"))
from e2e_support import JoinRefused, Player, find_set  # noqa: E402
from old_account_log import write_log  # noqa: E402

BIN = os.path.abspath(os.environ.get("SETGAME", ".build/release/setgame"))
accounts = int(sys.argv[1]) if len(sys.argv) > 1 else 100_000
games = int(sys.argv[2]) if len(sys.argv) > 2 else 1_000_000
duels = int(sys.argv[3]) if len(sys.argv) > 3 else 1_000
STORES = os.environ.get("STORES", "sqlite,postgresql").split(",")
ROUNDS = int(os.environ.get("ROUNDS", "3"))
CLIENTS, QPS, SECONDS = 4, 25, int(os.environ.get("SECONDS_LOADED", "30"))
PACE = int(os.environ.get("PACE", "500"))
PIN = (os.cpu_count() or 1) >= 2
REALTIME = os.environ.get("REALTIME", "1") == "1" and hasattr(os, "SCHED_FIFO")
if PIN:
    # This script's own work (the asking, and the rated games' twenty accounts) is load too: on
    # core 1 with the bench, never beside the server it times.
    os.sched_setaffinity(0, {1})
KINDS = ("profile", "history", "leaderboard", "ping")  # ping: the same round trip without the store
random.seed(1)
work = tempfile.mkdtemp(prefix="setgame-accounts-bench-")
cleanups = []


def cleanup():
    while cleanups:
        cleanups.pop()()
    shutil.rmtree(work, ignore_errors=True)


atexit.register(cleanup)
signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))


def on_core(core, command):
    return (["taskset", "-c", str(core)] if PIN else []) + command


def loopback_receive():
    """Which cores do loopback's receive work (`setgame bench` says it the same way): by default
    the core that sent each packet, so the server's core also does its clients' receive work;
    `echo 2 > /sys/class/net/lo/queues/rx-0/rps_cpus` (root) gives it to core 1. Read, never set."""
    queues = "/sys/class/net/lo/queues"
    try:
        masks = [open(os.path.join(queues, q, "rps_cpus")).read().strip() for q in os.listdir(queues) if q.startswith("rx-")]
    except OSError:
        return "not known"
    cores = sorted({32 * i + bit for mask in masks for i, word in enumerate(reversed(mask.split(",")))
                    for bit in range(32) if int(word, 16) >> bit & 1})
    return "on core " + ", ".join(map(str, cores)) if cores else "on the core that sent each packet"


# The log, written once; each store's data folder gets a hard link to it (the import renames it aside).
log_path = os.path.join(work, "accounts.jsonl")
began = time.time()
# No renames: the questions below ask for players by the names the log gave them.
write_log(log_path, accounts, games, rename_every=0)
print(f"log: {accounts:,} accounts, {games:,} games, {os.path.getsize(log_path) >> 20} MiB, written in {time.time() - began:.0f} s", flush=True)


def cpu(pid, children=False):
    """The process's CPU seconds (user and system), or its reaped children's."""
    fields = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
    return sum(int(x) for x in (fields[13:15] if children else fields[11:13])) / os.sysconf("SC_CLK_TCK")


def status(pid, field):
    return int(next(l.split()[1] for l in open(f"/proc/{pid}/status") if l.startswith(field))) >> 10


class Postgres:
    """The throwaway PostgreSQL of `.ci/postgres.sh`, on core 0 beside the server."""

    def __init__(self):
        out = subprocess.run(on_core(0, [os.path.join(HERE, "postgres.sh"), "start"]), check=True, capture_output=True, text=True).stdout
        self.url, self.folder = out.split()
        cleanups.append(self.stop)
        self.bin = max(d for d in (f"/usr/lib/postgresql/{v}/bin" for v in os.listdir("/usr/lib/postgresql")) if os.path.isdir(d))

    def as_owner(self, command):
        return (["runuser", "-u", "postgres", "--"] if os.getuid() == 0 else []) + command

    def restart(self):
        began = time.time()
        subprocess.run(on_core(0, self.as_owner([f"{self.bin}/pg_ctl", "-D", f"{self.folder}/data", "-m", "fast", "-w", "restart"])),
                       check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        return time.time() - began

    def postmaster(self):
        return int(open(f"{self.folder}/data/postmaster.pid").readline())

    def size(self):
        return int(subprocess.run(["psql", self.url, "-Atc", "SELECT pg_database_size(current_database())"], check=True,
                                  capture_output=True, text=True).stdout) >> 20

    def rss(self):
        """All of PostgreSQL's processes' RSS (shared buffers counted once per process that touched them)."""
        pids = subprocess.run(["pgrep", "-f", f"{self.folder}/data"], capture_output=True, text=True).stdout.split()
        pids += subprocess.run(["pgrep", "-P", ",".join(pids)], capture_output=True, text=True).stdout.split() if pids else []
        return sum(status(int(p), "VmRSS") for p in set(pids) if os.path.exists(f"/proc/{p}"))

    def stop(self):
        subprocess.run([os.path.join(HERE, "postgres.sh"), "stop", self.folder], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def start(data, store):
    command = on_core(0, [BIN, "serve", "--port", "0", "--data", data, "--store", store, "--max-connections", "100000",
                          "--messages-per-second", "1000000", "--connections-per-address", "100000", "--matches-per-address", "100000",
                          "--max-matches", "100000", "--connect-rate-per-address", "1000000"]
                      + (["--lag-compensation-ms", os.environ["LAG_MS"]] if "LAG_MS" in os.environ else []))
    began = time.time()
    server = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=open(os.path.join(data, "serve.log"), "a"), text=True)
    first = server.stdout.readline().strip()
    if not first:
        raise SystemExit(f"serve did not start: {open(os.path.join(data, 'serve.log')).read()[-2000:]}")
    server.cpu_at_start = cpu(server.pid)
    return server, int(first.rsplit(":", 1)[1]), time.time() - began


def stop(server):
    server.send_signal(signal.SIGTERM)
    server.wait()


def ask(port, seed, latencies, stopping, refused):
    """Asks over CLIENTS connections in turn, one question at a time, in a process of its own (`Asker`).
    At real-time priority its wake-ups are not queued behind the bench's 4,000 connections on core 1."""
    rng = random.Random(seed)
    if REALTIME:
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
        kind = rng.choice(KINDS)
        question = ({"type": kind, "variant": "classic"} if kind == "leaderboard" else {"type": "ping"} if kind == "ping"
                    else {"type": kind, "name": "p%d" % rng.randrange(accounts)})
        sent = time.perf_counter()
        connection.sendall((json.dumps(question) + "\n").encode())
        reply = reader.readline()
        if b'"type":"error"' in reply:
            refused.append(reply)  # while PostgreSQL restarts, the store says it is unavailable
        else:
            latencies[kind].append(time.perf_counter() - sent)
        next_at += 1 / (QPS * CLIENTS)
        time.sleep(max(0, next_at - time.perf_counter()))


def farm(port, played, stopping):
    """Rated games landing all the while: twenty accounts play each other in turn, one set taken
    and a resignation, a game every 50 ms at most."""
    keys = ["%064x" % (0xfa4 + i) for i in range(20)]
    pairs = [(a, b) for a in range(20) for b in range(a + 1, 20)]
    number = 0
    while not stopping.is_set():
        a, b = pairs[number % len(pairs)]
        match = "rated-%d-%d" % (port, number)
        number += 1
        began = time.perf_counter()
        first = None
        try:
            first = Player(port, "r%d" % a, match, account=keys[a], refusals_raise=True)
            second = Player(port, "r%d" % b, match, account=keys[b], refusals_raise=True)
        except (JoinRefused, OSError, EOFError):
            if first:
                first.close()
            played.append("refused")  # a join refused while the database was down: no game began
            time.sleep(0.05)
            continue
        try:
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
        except (SystemExit, OSError, EOFError):
            played.append(None)  # a game begun and cut: its end was never told
        time.sleep(max(0, 0.05 - (time.perf_counter() - began)))


def percentile(values, share):
    values = sorted(values)
    return values[min(len(values) - 1, int(len(values) * share))] * 1000 if values else float("nan")


class Asker:
    """`ask` in a process of its own, forked before the farmer's thread starts: an answer that
    arrives while the farmer parses its lines is then not held for Python's interpreter lock
    (up to its 5 ms switch interval), and what is timed is the server, not this script."""

    def __init__(self, port, seed):
        self.results, sending = multiprocessing.Pipe(duplex=False)
        self.stopping = multiprocessing.get_context("fork").Event()
        self.process = multiprocessing.get_context("fork").Process(target=Asker.run, args=(port, seed, self.stopping, sending))
        self.process.start()
        sending.close()

    @staticmethod
    def run(port, seed, stopping, sending):
        latencies, refused = {k: [] for k in KINDS}, []
        ask(port, seed, latencies, stopping, refused)
        sending.send((latencies, len(refused)))

    def stop(self):
        """The latencies by kind and the number of questions refused."""
        self.stopping.set()
        latencies, refused = self.results.recv()
        self.process.join()
        return latencies, refused


def asked(port, seconds, seed):
    asker = Asker(port, seed)
    time.sleep(seconds)
    return asker.stop()


def loaded(port, server, seed, postgres=None):
    """The loaded window: duels, rated games and questions; PostgreSQL restarted in its middle when given."""
    played, stopping = [], threading.Event()
    bench = subprocess.Popen(on_core(1, [BIN, "bench", "--server", f"127.0.0.1:{port}", "--matches", str(duels), "--spectators", "2",
                                         "--pace", str(PACE), "--duration", str(SECONDS), "--json"]),
                             stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    time.sleep(5)  # the duels connect and start first
    asker = Asker(port, seed)
    farmer = threading.Thread(target=farm, args=(port, played, stopping))
    farmer.start()
    window = max(1, SECONDS - 8)
    restart = None
    if postgres:
        time.sleep(window / 2)
        restart = postgres.restart()
        time.sleep(max(0, window / 2 - restart))
    else:
        time.sleep(window)
    rss = status(server.pid, "VmRSS")
    stopping.set()
    latencies, refused = asker.stop()
    farmer.join()
    out = bench.communicate()[0]
    report = json.loads(out[out.index("{"):])
    return dict(latencies=latencies, refused=refused, played=played, rss=rss, bench=report, restart=restart)


def show(latencies):
    return ", ".join(f"{k} p50 {percentile(v, 0.5):.2f} / p99 {percentile(v, 0.99):.2f} / max {max(v) * 1000 if v else 0:.2f} ms ({len(v)})"
                     for k, v in latencies.items())


results = {}
for store in STORES:
    data = os.path.join(work, store)
    os.makedirs(os.path.join(data, "accounts"), mode=0o700)
    os.link(log_path, os.path.join(data, "accounts", "accounts.jsonl"))
    postgres = Postgres() if store == "postgresql" else None
    location = postgres.url if postgres else os.path.join(data, "accounts", "accounts.sqlite3")
    figures = results[store] = {k: [] for k in ("start", "rss", "alone", "loaded", "action", "action_restart", "restart", "refused", "cut",
                                                "loaded_rss", "pg_rss")}
    database_cpu = cpu(postgres.postmaster(), children=True) if postgres else 0
    server, port, imported = start(data, location)
    stop(server)
    time.sleep(1)  # PostgreSQL's connection process ends after the server's goodbye, and is reaped
    # The machine is shared: the CPU time the import took (the server's, and PostgreSQL's
    # connection process, reaped by the postmaster when the server stopped) says more than the wall.
    database_cpu = cpu(postgres.postmaster(), children=True) - database_cpu if postgres else 0
    size = postgres.size() if postgres else sum(os.path.getsize(location + s) for s in ("", "-wal") if os.path.exists(location + s)) >> 20
    figures["import"], figures["import_cpu"], figures["size"] = imported, (server.cpu_at_start, database_cpu), size
    print(f"{store}: first start, importing {games:,} games: {imported:.1f} s ({games / imported:,.0f} games/s); CPU: server "
          f"{server.cpu_at_start:.1f} s" + (f", PostgreSQL {database_cpu:.1f} s" if postgres else "") + f"; database {size} MiB", flush=True)
    for round in range(ROUNDS):
        # The last round's unfinished duels (their journals) would be restored by this start,
        # and timed as the store's: only the accounts are kept from round to round.
        for name in os.listdir(data):
            if name not in ("accounts", "serve.log"):
                path = os.path.join(data, name)
                shutil.rmtree(path) if os.path.isdir(path) else os.remove(path)
        server, port, took = start(data, location)
        time.sleep(1)
        rss = status(server.pid, "VmRSS")
        figures["start"].append(took), figures["rss"].append(rss)
        if postgres:
            figures["pg_rss"].append(postgres.rss())
        alone, _ = asked(port, 10, 1 + round)
        figures["alone"].append(alone)
        quiet = loaded(port, server, 100 + round)
        figures["loaded"].append(quiet["latencies"]), figures["action"].append(quiet["bench"]["actionLatency"]["p99Ms"])
        figures["loaded_rss"].append(quiet["rss"])
        print(f"{store} round {round + 1}: start {took:.3f} s, RSS at rest {rss} MiB"
              + (f" (PostgreSQL's processes {figures['pg_rss'][-1]} MiB)" if postgres else "")
              + f"\n  alone: {show(alone)}\n  during {duels:,} duels ({sum(1 for p in quiet['played'] if p)} rated games landed): {show(quiet['latencies'])}"
              + f"\n  duel action p99 {quiet['bench']['actionLatency']['p99Ms']:.2f} ms, errors {quiet['bench']['errors']}, server RSS {quiet['rss']} MiB",
              flush=True)
        if postgres:
            hit = loaded(port, server, 200 + round, postgres)
            figures["action_restart"].append(hit["bench"]["actionLatency"]["p99Ms"])
            figures["restart"].append(hit["restart"]), figures["refused"].append(hit["refused"])
            figures["cut"].append(sum(1 for p in hit["played"] if p is None))
            print(f"  with PostgreSQL restarted ({hit['restart']:.2f} s) in the window: duel action p99 "
                  f"{hit['bench']['actionLatency']['p99Ms']:.2f} ms (max {hit['bench']['actionLatency']['maxMs']:.1f}), errors "
                  f"{hit['bench']['errors']}; questions refused {hit['refused']}, rated games cut {sum(1 for p in hit['played'] if p is None)} "
                  f"(of {sum(1 for p in hit['played'] if p is not None and p != 'refused')} told), joins refused "
                  f"{sum(1 for p in hit['played'] if p == 'refused')}; "
                  f"{show(hit['latencies'])}", flush=True)
        stop(server)
    if postgres:
        postgres.stop()
        cleanups.remove(postgres.stop)
    shutil.rmtree(data, ignore_errors=True)


def span(values, unit="", digits=2):
    values = [v for v in values if v == v]
    if not values:
        return "—"
    low, high = min(values), max(values)
    return f"{low:.{digits}f}{unit}" if f"{low:.{digits}f}" == f"{high:.{digits}f}" else f"{low:.{digits}f}–{high:.{digits}f}{unit}"


def of(figures, phase, kind, share):
    return span([percentile(run[kind], share) for run in figures[phase]], " ms")


print(f"\n{accounts:,} accounts / {games:,} games, {ROUNDS} rounds, {duels:,} duels at {'human pace' if PACE == 500 else f'pace {PACE} ms'}; "
      f"loopback receive work {loopback_receive()}\n")
print("| figure | " + " | ".join(STORES) + " |")
print("|---|" + "---|" * len(STORES))
rows = [("import of the log (first start)", lambda f: f"{f['import']:.1f} s ({games / f['import']:,.0f} games/s)"),
        ("its CPU time: server + database", lambda f: f"{f['import_cpu'][0]:.1f} + {f['import_cpu'][1]:.1f} s"),
        ("database size", lambda f: f"{f['size']} MiB"),
        ("start", lambda f: span(f["start"], " s", 3)),
        ("server RSS at rest", lambda f: span(f["rss"], " MiB", 0)),
        ("server RSS during the duels", lambda f: span(f["loaded_rss"], " MiB", 0))]
for kind in KINDS:
    rows.append((f"{kind} p50 / p99 / max, during the duels",
                 lambda f, k=kind: f"{of(f, 'loaded', k, 0.5)} / {of(f, 'loaded', k, 0.99)} / "
                                   f"{span([max(run[k]) * 1000 for run in f['loaded'] if run[k]], ' ms')}"))
    rows.append((f"{kind} p99 alone", lambda f, k=kind: of(f, "alone", k, 0.99)))
rows += [("duel action p99, database steady", lambda f: span(f["action"], " ms")),
         ("duel action p99, database restarted in the window", lambda f: span(f["action_restart"], " ms")),
         ("PostgreSQL's processes' RSS at rest", lambda f: span(f["pg_rss"], " MiB", 0))]
for name, figure in rows:
    print(f"| {name} | " + " | ".join(figure(results[s]) for s in STORES) + " |")

# CHECK=1 (CI's small run): a PostgreSQL restarted under play cuts no rated game; every game
# begun is told its end. Counts only, never a speed.
if os.environ.get("CHECK") == "1":
    cut = sum(sum(results[s]["cut"]) for s in STORES)
    if cut:
        raise SystemExit(f"FAIL: {cut} rated games were cut while PostgreSQL restarted")
    print("accounts-bench check: no rated game cut across the restarts")
