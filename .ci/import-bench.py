"""The import of an old accounts log, timed (a benchmark, not a test; issue 43 item 4). Writes an
accounts log of the version before the database (accounts.jsonl: ACCOUNTS accounts, GAMES rated
duels with 25 set times each, a rename every 500 games), then for each store starts
`setgame serve --store …` on a data folder holding it: the first start imports the log. It prints
the import's wall time (process start to its first line), games/s, the server's CPU time, the
longest gap between the import's lines (its first, each progress and step line, the watch's), the database's size, and checks the counts.

    SETGAME=.build/release/setgame python3 .ci/import-bench.py [GAMES [ACCOUNTS]]

STORES=sqlite,postgresql picks the stores (default both); PostgreSQL is the one
SETGAME_TEST_POSTGRES names (a database of its own is made and dropped), else a throwaway one
(`.ci/postgres.sh`). LOG=PATH keeps the written log there and reuses it when it exists. It exits
1 when an import fails or a count is off, never for a speed.
"""
import os, re, shutil, signal, sqlite3, subprocess, sys, tempfile, time
from datetime import datetime

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from old_account_log import write_log  # noqa: E402
BIN = os.path.abspath(os.environ.get("SETGAME", ".build/release/setgame"))
games = int(sys.argv[1]) if len(sys.argv) > 1 else 1_000_000
accounts = int(sys.argv[2]) if len(sys.argv) > 2 else 100_000
STORES = os.environ.get("STORES", "sqlite,postgresql").split(",")


def cpu(pid):
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def stamps(log_path):
    """The import's lines (its first, progress, each step's, the watch's) with their times, in seconds."""
    lines = []
    with open(log_path) as f:
        for line in f:
            if "accounts import:" in line or "accounts: importing" in line:
                lines.append((datetime.strptime(line.split(" ", 1)[0], "%Y-%m-%dT%H:%M:%S.%fZ").timestamp(), line.split(" ", 1)[1].strip()))
    return lines


def import_once(data, store):
    """Starts serve on `data` (its first start imports the log), waits for its first line, stops it."""
    serve_log = os.path.join(data, "serve.log")
    began = time.time()
    server = subprocess.Popen([BIN, "serve", "--port", "0", "--data", data, "--store", store], stdout=subprocess.PIPE,
                              stderr=open(serve_log, "a"), text=True)
    first = server.stdout.readline().strip()
    took = time.time() - began
    used = cpu(server.pid) if first else 0
    server.send_signal(signal.SIGTERM)
    server.wait()
    if not first:
        raise SystemExit(f"serve did not start: {open(serve_log).read()[-3000:]}")
    said = open(serve_log).read()
    if "accounts: imported" not in said:
        raise SystemExit(f"no import was logged: {said[-3000:]}")
    lines = [(began, "the start")] + stamps(serve_log) + [(began + took, "the first line after the import")]
    gap, before, after = max((b[0] - a[0], a[1], b[1]) for a, b in zip(lines, lines[1:]))
    return took, used, (gap, before, after), len(lines) - 2, said


class Postgres:
    """A database of its own on the server SETGAME_TEST_POSTGRES names, or on a throwaway one."""
    def __init__(self):
        self.dir = None
        server = os.environ.get("SETGAME_TEST_POSTGRES")
        if not server:
            server, self.dir = subprocess.check_output([os.path.join(HERE, "postgres.sh"), "start"], text=True).split()
        self.server = server
        self.name = "setgame_import_bench_%d" % os.getpid()
        subprocess.check_call(["psql", "-qX", server, "-c", f"CREATE DATABASE {self.name}"], stdout=subprocess.DEVNULL)
        self.url = server.rsplit("/", 1)[0] + "/" + self.name

    def count(self, table):
        return int(subprocess.check_output(["psql", "-qtAX", self.url, "-c", f"SELECT COUNT(*) FROM {table}"], text=True))

    def size(self):
        return int(subprocess.check_output(["psql", "-qtAX", self.url, "-c", "SELECT pg_database_size(current_database())"], text=True)) >> 20

    def stop(self):
        subprocess.call(["psql", "-qX", self.server, "-c", f"DROP DATABASE IF EXISTS {self.name} WITH (FORCE)"], stdout=subprocess.DEVNULL)
        if self.dir:
            subprocess.call([os.path.join(HERE, "postgres.sh"), "stop", self.dir])


def main():
    work = tempfile.mkdtemp(prefix="setgame-import-bench-")
    log_path = os.environ.get("LOG") or os.path.join(work, "accounts.jsonl")
    if not os.path.exists(log_path):
        began = time.time()
        write_log(log_path, accounts, games)
        print(f"log: {accounts:,} accounts, {games:,} games, {os.path.getsize(log_path) >> 20} MiB, written in {time.time() - began:.0f} s",
              flush=True)
    try:
        failed = False
        for store in STORES:
            data = os.path.join(work, store)
            os.makedirs(os.path.join(data, "accounts"), mode=0o700)
            os.link(log_path, os.path.join(data, "accounts", "accounts.jsonl"))
            postgres = Postgres() if store == "postgresql" else None
            try:
                location = postgres.url if postgres else os.path.join(data, "accounts", "accounts.sqlite3")
                took, used, gap, lines, said = import_once(data, location)
                if postgres:
                    counted, size = postgres.count("games"), postgres.size()
                else:
                    with sqlite3.connect(location) as db:
                        counted = db.execute("SELECT COUNT(*) FROM games").fetchone()[0]
                    size = os.path.getsize(location) >> 20
                load = os.getloadavg()[0]
                print(f"{store}: {games:,} games imported in {took:.1f} s ({games / took:,.0f} games/s), server CPU {used:.1f} s, "
                      f"{lines} progress lines, longest gap {gap[0]:.1f} s, database {size} MiB, load {load:.1f}\n  (the longest gap: from "
                      f"\"{gap[1]}\" to \"{gap[2]}\")", flush=True)
                if counted != games or f"and {games} games" not in said:
                    print(f"FAIL: {store} holds {counted} games of {games}")
                    failed = True
            finally:
                if postgres:
                    postgres.stop()
                shutil.rmtree(data, ignore_errors=True)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
