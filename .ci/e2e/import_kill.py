"""An import killed with -9 midway leaves a store the next start imports into again, whole: its
tables then equal those of a clean import of the same log (SQLite; and PostgreSQL, written by
COPY, when SETGAME_TEST_POSTGRES names a server: each import gets a database of its own there).
The log is given through a named pipe, so the import is certainly midway when it is killed: it
has written its first batch (its first progress line says so) and waits for the rest of the log,
which never comes."""
import atexit, os, shutil, signal, sqlite3, subprocess, sys, tempfile, threading, time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, ".."))
from old_account_log import write_log  # noqa: E402
BIN = os.environ["SETGAME"]
TABLES = {"accounts": "id", "ratings": "account_id, variant", "rated_opponents": "account_id, variant, opponent_id", "games": "id",
          "game_seats": "game_id, seat", "account_games": "account_id, number", "set_times": "account_id, ms"}
GAMES, ACCOUNTS = 12_000, 300
work = tempfile.mkdtemp(prefix="setgame-import-kill-")
servers = []


@atexit.register
def cleanup():
    # A failed check leaves no server behind, nor its folder.
    for server in servers:
        if server.poll() is None:
            server.kill()
            server.wait()
    shutil.rmtree(work, ignore_errors=True)


def fail(message):
    print(f"FAIL: {message}")
    sys.exit(1)


def serve(data):
    """Starts serve on `data` with the store `data/store` names, if any; its log goes to data/serve.log."""
    store_file = os.path.join(data, "store")
    store = ["--store", open(store_file).read()] if os.path.exists(store_file) else []
    server = subprocess.Popen([BIN, "serve", "--port", "0", "--data", data] + store, stdout=subprocess.PIPE,
                              stderr=open(os.path.join(data, "serve.log"), "a"), text=True)
    servers.append(server)
    return server


def import_whole(data):
    """Starts serve on `data` until it listens (the import done), stops it, and returns its log."""
    server = serve(data)
    if not server.stdout.readline():
        fail(f"serve did not start: {open(os.path.join(data, 'serve.log')).read()[-3000:]}")
    server.send_signal(signal.SIGTERM)
    server.wait()
    return open(os.path.join(data, "serve.log")).read()


def tables(data):
    store_file = os.path.join(data, "store")
    if os.path.exists(store_file):
        url = open(store_file).read()
        return {table: subprocess.check_output(["psql", "-qX", url, "-c", f"COPY (SELECT * FROM {table} ORDER BY {order}) TO STDOUT"],
                                               text=True).splitlines() for table, order in TABLES.items()}
    with sqlite3.connect(os.path.join(data, "accounts", "accounts.sqlite3")) as db:
        return {table: db.execute(f"SELECT * FROM {table} ORDER BY {order}").fetchall() for table, order in TABLES.items()}


POSTGRES = os.environ.get("SETGAME_TEST_POSTGRES")
databases = []


@atexit.register
def drop_databases():
    for name in databases:
        subprocess.call(["psql", "-qX", POSTGRES, "-c", f"DROP DATABASE IF EXISTS {name} WITH (FORCE)"], stdout=subprocess.DEVNULL)


def folder(name, store):
    """A data folder; on PostgreSQL with a database of its own, which `data/store` names."""
    path = os.path.join(work, f"{store}-{name}")
    os.makedirs(os.path.join(path, "accounts"), mode=0o700)
    if store == "postgresql":
        database = f"setgame_import_kill_{os.getpid()}_{name}"
        subprocess.check_call(["psql", "-qX", POSTGRES, "-c", f"CREATE DATABASE {database}"], stdout=subprocess.DEVNULL)
        databases.append(database)
        with open(os.path.join(path, "store"), "w") as f:
            f.write(POSTGRES.rsplit("/", 1)[0] + "/" + database)
    return path


log_path = os.path.join(work, "accounts.jsonl")
write_log(log_path, ACCOUNTS, GAMES, seed=3)
lines = open(log_path).read().splitlines(keepends=True)


def scenario(store):
    """Imports the log cleanly, then kills an import midway and starts again, on `store`."""
    clean = folder("clean", store)
    os.link(log_path, os.path.join(clean, "accounts", "accounts.jsonl"))
    said = import_whole(clean)
    if f"imported {ACCOUNTS} accounts and {GAMES} games" not in said:
        fail(f"the clean import said: {said[-2000:]}")

    killed = folder("killed", store)
    pipe = os.path.join(killed, "accounts", "accounts.jsonl")
    os.mkfifo(pipe, 0o600)
    server = serve(killed)
    writer = {}

    def feed():
        # Accounts and half the games, then the pipe is held open: the import waits for the rest.
        writer["pipe"] = open(pipe, "w")
        try:
            writer["pipe"].writelines(lines[:ACCOUNTS + GAMES // 2])
            writer["pipe"].flush()
        except BrokenPipeError:
            pass  # killed while this was still being read

    threading.Thread(target=feed, daemon=True).start()
    deadline = time.time() + 120
    while "accounts import: 5,000 games" not in open(os.path.join(killed, "serve.log")).read():
        if time.time() > deadline or server.poll() is not None:
            fail(f"no progress line after the first batch: {open(os.path.join(killed, 'serve.log')).read()[-2000:]}")
        time.sleep(0.05)
    server.kill()
    server.wait()
    try:
        writer["pipe"].close()
    except BrokenPipeError:
        pass
    if not os.path.exists(pipe) or "accounts: imported" in open(os.path.join(killed, "serve.log")).read():
        fail("the import finished before it was killed")

    os.remove(pipe)
    os.link(log_path, pipe)
    said = import_whole(killed)
    if f"imported {ACCOUNTS} accounts and {GAMES} games" not in said.split("accounts import: 5,000 games", 1)[1]:
        fail(f"the start after the kill did not import the log again, whole: {said[-2000:]}")
    expected, got = tables(clean), tables(killed)
    for table in TABLES:
        if got[table] != expected[table]:
            fail(f"{table}: {len(got[table])} rows after the kill and a restart, {len(expected[table])} after a clean import")
    print(f"{store}: import killed midway with -9, then done again whole at the next start: every table equals a clean import's "
          f"({sum(len(rows) for rows in got.values()):,} rows)")


for store in ["sqlite"] + (["postgresql"] if POSTGRES else []):
    scenario(store)
