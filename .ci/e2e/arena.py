"""Arenas over the real binary: opened, listed and read back by `setgame arena`, and kept
through a kill -9 of the server (the arena row is committed before the answer is sent); an
account that joined it finds it in `setgame profile`."""
import json, os, sqlite3, subprocess, sys, tempfile

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
print("arena: ok")
