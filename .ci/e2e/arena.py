"""Arenas over the real binary: opened, listed and read back by `setgame arena`, and kept
through a kill -9 of the server (the arena row is committed before the answer is sent)."""
import json, os, sqlite3, subprocess, sys, tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from e2e_support import BIN, fail, Server  # noqa: E402


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
server.stop()
db = sqlite3.connect(f"file:{os.path.join(data, 'accounts', 'accounts.sqlite3')}?mode=ro", uri=True)
rows = db.execute("SELECT name, variant, rated FROM arenas").fetchall()
db.close()
if rows != [("friday", "junior", 1)]:
    fail(f"the store holds {rows}")
print("arena: ok")
