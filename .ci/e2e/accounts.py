"""Accounts over the real binary: a rated duel, kill -9 at once after the resignation is sent
(before, between or after the journal's write and the accounts database's commit, wherever it
lands), a restart, and the game is recorded exactly once with the ratings every player was told,
read from the SQLite database as an operator would; then the CLI reads them back at 80 columns
and as JSON."""
import json, os, sqlite3, subprocess, sys, tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from e2e_support import BIN, Player, a_set_on_the_table, fail, Server as Serve  # noqa: E402

KEYS = {"ann": "a1" * 32, "bob": "b2" * 32}


class Server(Serve):
    def __init__(self, data):
        super().__init__(data, log=os.path.join(data, "serve.log"), arguments=["--set-points-lost-per-second", "0"])


def recorded_games(data):
    """Each game in the data folder's accounts database, with each seat's rating after it, read
    only, beside the running server."""
    path = os.path.join(data, "accounts", "accounts.sqlite3")
    db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        games = db.execute("SELECT id, match FROM games ORDER BY id").fetchall()
        return [{"match": match,
                 "after": [r for (r,) in db.execute("SELECT after_rating FROM game_seats WHERE game_id = ? ORDER BY seat", (game,))]}
                for game, match in games]
    finally:
        db.close()


def cli(port, *arguments):
    result = subprocess.run([BIN, *arguments[:1], f"127.0.0.1:{port}", *arguments[1:]], capture_output=True, text=True, timeout=20)
    if result.returncode != 0:
        fail(f"setgame {' '.join(arguments)} failed: {result.stderr}")
    return result.stdout


data = tempfile.mkdtemp(prefix="setgame-accounts-")
told = {}
for round_number in range(3):
    match = f"rated{round_number}"
    server = Server(data)
    ann, bob = [Player(server.port, name, match, account=KEYS[name]) for name in ("ann", "bob")]
    # Bob joined second: his snapshot holds the dealt table (three more when it held no set).
    cards = a_set_on_the_table(bob)
    ann.send({"type": "claim"})
    for card in cards:
        ann.send({"type": "select", "card": card})
    bob.until(lambda m: m["type"] == "event" and m["kind"] == "set_taken")
    ann.send({"type": "resign"})
    if round_number == 0:
        over = bob.until(lambda m: m["type"] == "event" and m["kind"] == "game_over")
        told[match] = {r["seat"]: r["after"] for r in over["ratings"]}
    server.kill()  # at once: wherever the writes were
    ann.close(), bob.close()
    server = Server(data)
    # A resignation the journal never got: the match is back, still playing; resign it again.
    try:
        ann = Player(server.port, "ann", match, token=ann.token, account=KEYS["ann"])
        if ann.view["state"] == "playing":
            ann.send({"type": "resign"})
            ann.until(lambda m: m["type"] == "event" and m["kind"] == "game_over")
    except EOFError:
        pass
    ann.close()
    server.stop()

server = Server(data)
records = recorded_games(data)
matches = [record["match"] for record in records]
if sorted(matches) != ["rated0", "rated1", "rated2"]:
    fail(f"each game must be recorded exactly once, the database holds {matches}")
first = next(r for r in records if r["match"] == "rated0")
after = [round(r) for r in first["after"]]
if told["rated0"] != {0: after[0], 1: after[1]}:
    fail(f"game over told {told['rated0']}, the database holds {after}")
profile = json.loads(cli(server.port, "profile", "bob", "--json"))
if profile["wins"] != 3 or profile["ratings"]["classic"]["games"] != 3:
    fail(f"bob's profile: {profile}")
for command in (["profile", "bob"], ["history", "ann"], ["leaderboard"]):
    text = cli(server.port, *command)
    if any(len(line) > 80 for line in text.splitlines()):
        fail(f"setgame {command[0]} is wider than 80 columns:\n{text}")
    print(text.rstrip())
server.stop()
print("accounts: three rated duels killed at once after the resignation, each recorded once; ratings as told")
