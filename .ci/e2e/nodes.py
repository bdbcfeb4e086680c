"""Several servers (issue 35) over the real binary: three nodes on one throwaway PostgreSQL, each
on its own loopback address. Players follow redirects here as every client of this project does
(connect to the address, send the same join again), and `setgame join` follows one on its own."""
import atexit, hashlib, os, signal, socket, subprocess, sys, tempfile, time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from e2e_support import BIN, STARTED, Connection, a_set_on_the_table, fail  # noqa: E402

CI = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
KEYS = {"ann": "a1" * 32, "bob": "b2" * 32}
HOSTS = {"a": "127.0.0.1", "b": "127.0.0.2", "c": "127.0.0.3"}
DEADLINE_S = 30

pg_url, pg_dir = subprocess.run([os.path.join(CI, "postgres.sh"), "start"], check=True, capture_output=True,
                                text=True).stdout.split()
atexit.register(lambda: subprocess.run([os.path.join(CI, "postgres.sh"), "stop", pg_dir]))
work = tempfile.mkdtemp(prefix="setgame-nodes-")


def free_port(host):
    with socket.socket() as probe:
        probe.bind((host, 0))
        return probe.getsockname()[1]


class Node:
    """`setgame serve --node NAME` on its own address, data folder and log."""

    def __init__(self, name):
        self.name, self.host = name, HOSTS[name]
        self.port = free_port(self.host)
        self.data = os.path.join(work, name)
        self.start()

    @property
    def address(self):
        return f"{self.host}:{self.port}"

    def start(self):
        self.proc = subprocess.Popen(
            [BIN, "serve", "--host", self.host, "--port", str(self.port), "--data", self.data, "--seed", "42",
             "--store", pg_url, "--node", self.name, "--advertise", self.address, "--set-points-lost-per-second", "0"],
            stdout=subprocess.PIPE, stderr=open(os.path.join(work, self.name + ".log"), "a"), text=True)
        STARTED.append(self.proc)
        line = self.proc.stdout.readline()
        if "serving on" not in line:
            fail(f"node {self.name} did not start: {line!r} (log: {work}/{self.name}.log)")

    def kill(self):
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait()


class Conn(Connection):
    def __init__(self, address):
        super().__init__(address, timeout_s=DEADLINE_S)


def join(address, request, expect_hops=None):
    """Joins through any node: follows redirects (at most 3) and waits out node_away, as the
    clients do. Returns the connection seated, its `joined`, the hops and the node_away seen."""
    request, hops, away = dict(request), 0, []
    conn = Conn(address)
    conn.send(request)
    while True:
        message = conn.read()
        if message["type"] == "joined":
            conn.until(lambda m: m["type"] == "snapshot")
            if expect_hops is not None and hops != expect_hops:
                tables = subprocess.run(["psql", pg_url, "-Atc", "SELECT * FROM waiting; SELECT match, node FROM match_homes"],
                                        capture_output=True, text=True).stdout
                fail(f"{request['name']}: {hops} redirects, expected {expect_hops}; joined {message}; the store: {tables}")
            return conn, message, hops, away
        if message["type"] == "redirect":
            hops += 1
            if hops > 3:
                fail(f"{request['name']}: a redirect loop")
            conn.close()
            conn = Conn(message["address"])
            conn.send(request)
        elif message["type"] == "error" and message["code"] == "node_away":
            away.append(message)
            if len(away) > 20:
                fail(f"{request['name']}: the node stayed away: {message}")
            time.sleep(message["retryAfterMs"] / 1000)
            conn.send(request)
        elif message["type"] == "error":
            fail(f"{request['name']} could not join at {conn.address}: {message}")


def take_a_set(player, other):
    """`player` claims and picks a set; both see it taken. Returns the ack of the last pick."""
    cards = a_set_on_the_table(player)
    player.request({"type": "claim"})
    for card in cards:
        reply = player.request({"type": "select", "card": card})
    if reply["type"] != "ack":
        fail(f"a set was not acknowledged: {reply}")
    other.until(lambda m: m["type"] == "event" and m["kind"] == "set_taken")
    player.send({"type": "snapshot"})
    player.until(lambda m: m["type"] == "snapshot")
    return reply


def scores(conn):
    conn.send({"type": "snapshot"})
    view = conn.until(lambda m: m["type"] == "snapshot")
    return [p["score"] for p in view["players"]]


nodes = {name: Node(name) for name in HOSTS}
a, b, c = nodes["a"], nodes["b"], nodes["c"]

# 1. Cross-node pairing: ann waits on a with no match named; bob, arriving at b, is sent to a.
ann, joined, _, _ = join(a.address, {"type": "join", "name": "ann", "account": KEYS["ann"]}, expect_hops=0)
duel = joined["match"]
lister = Conn(b.address)
for _ in range(100):
    listing = lister.request({"type": "list"})
    if any(m["name"] == duel and m.get("address") == a.address for m in listing["matches"]):
        break
    time.sleep(0.1)
else:
    fail(f"b's list never showed {duel} on a: {listing}")
# ann's waiting row is written in the decision that made her wait, before she was told she waits.
rows = subprocess.run(["psql", pg_url, "-Atc", f"SELECT node FROM waiting WHERE match = '{duel}'"], capture_output=True, text=True).stdout
if rows.strip() != "a":
    fail(f"{duel} did not wait in the store once ann was told she waits: {rows!r}")
bob, joined, _, _ = join(b.address, {"type": "join", "name": "bob", "account": KEYS["bob"]}, expect_hops=1)
if joined["match"] != duel:
    fail(f"bob was paired in {joined['match']}, not ann's {duel}")
ann.until(lambda m: m["type"] == "event" and m["kind"] == "game_started")
print(f"nodes: ann waiting on a, bob arriving at b: paired in {duel} on a")

# 2. A spectator on the third node is sent to the duel's node.
eve, _, hops, _ = join(c.address, {"type": "join", "role": "spectator", "name": "eve", "match": duel}, expect_hops=1)
print("nodes: a spectator at c watches the duel on a")

# 3. `setgame join` follows a redirect on its own: cat's match lives on dan's node.
dan, joined, _, _ = join(a.address, {"type": "join", "name": "dan", "match": "tm"})
home = dan.address
elsewhere = next(n for n in nodes.values() if n.address != home)
session = f"setgame-nodes-{os.getpid()}"
subprocess.run(["tmux", "new-session", "-d", "-s", session, "-x", "100", "-y", "30",
                f"env XDG_STATE_HOME={work}/cat {BIN} join {elsewhere.address} --name cat --match tm --no-animation"], check=True)
atexit.register(lambda: subprocess.run(["tmux", "kill-session", "-t", session], capture_output=True))
dan.until(lambda m: m["type"] == "event" and m["kind"] == "player_joined" and m["name"] == "cat")
print(f"nodes: setgame join at {elsewhere.address} followed the redirect to {home} and sat beside dan")

# 4. Play, then kill a: its duel's players come back with the same tokens once it restarts;
# meanwhile a join for the duel elsewhere is told the node is away, and when to try again.
take_a_set(ann, bob)
before = scores(ann)
a.kill()
ann.close(), bob.close(), eve.close()
# Issue 42, item 8: `setgame watch` through c is sent to a's dead address while a's lease runs: it
# counts down on screen and asks c again (never "Connection refused" and exit 1), and watches the
# duel once a is back.
watcher = f"setgame-nodes-watch-{os.getpid()}"
subprocess.run(["tmux", "new-session", "-d", "-s", watcher, "-x", "100", "-y", "30",
                f"env XDG_STATE_HOME={work}/wes {BIN} watch {c.address} {duel} --name wes --no-animation; sleep 60"], check=True)
atexit.register(lambda: subprocess.run(["tmux", "kill-session", "-t", watcher], capture_output=True))


def pane(name):
    return subprocess.run(["tmux", "capture-pane", "-p", "-t", name], capture_output=True, text=True).stdout


for _ in range(100):
    if "retrying in" in pane(watcher):
        break
    time.sleep(0.1)
else:
    fail(f"setgame watch sent to the killed node showed no countdown:\n{pane(watcher)}")
print("nodes: setgame watch sent to the killed node counts down and asks again")
# Until a's lease runs out (10 s) the others still send players there, where nothing listens;
# then they say it is away.
for _ in range(150):
    probe = Conn(c.address)
    probe.send({"type": "join", "name": "zed", "match": duel})
    away = probe.until(lambda m: m["type"] in ("error", "redirect", "joined"))
    probe.close()
    if away["type"] != "redirect":
        break
    time.sleep(0.1)
if away.get("code") != "node_away" or away.get("node") != "a" or away.get("retryAfterMs", 0) < 1000:
    fail(f"a join for {duel} while a is down: {away}")
a.start()
ann, joined, _, _ = join(a.address, {"type": "join", "name": "ann", "token": ann.token, "account": KEYS["ann"]})
bob, joined_bob, _, _ = join(a.address, {"type": "join", "name": "bob", "token": bob.token, "account": KEYS["bob"]})
if not (joined["resumed"] and joined_bob["resumed"]) or scores(ann) != before:
    fail(f"after a's restart: resumed {joined['resumed']}/{joined_bob['resumed']}, scores {scores(ann)} (before {before})")
print(f"nodes: a killed (node_away {away['retryAfterMs']} ms at c) and restarted: the duel resumed with its tokens, scores {before}")
for _ in range(300):
    shown = pane(watcher)
    if "ann" in shown and "retrying in" not in shown and "asking again" not in shown:
        break
    time.sleep(0.1)
else:
    fail(f"setgame watch did not come back to the duel once a restarted:\n{pane(watcher)}")
print("nodes: setgame watch came back to the duel on the restarted node")

# 5. PostgreSQL restarted under play: every acknowledged set is still there.
subprocess.run([os.path.join(CI, "postgres.sh"), "restart", pg_dir], check=True)
take_a_set(bob, ann)
after = scores(ann)
if sum(after) <= sum(before):
    fail(f"a set acknowledged after PostgreSQL's restart is missing: {after} (before {before})")
print(f"nodes: PostgreSQL restarted under play: nothing acknowledged lost, scores {after}")
# Each node's first health question after the restart is answered on a new connection: ready.
for node in nodes.values():
    probe = subprocess.run([BIN, "serve", "--check", "--address", node.address], capture_output=True, text=True, timeout=DEADLINE_S)
    if probe.returncode != 0:
        fail(f"node {node.name}'s first health after PostgreSQL's restart: {probe.stdout} {probe.stderr}")
print("nodes: every node's first health after the restart says ready")

# 6. A rated game's end, read on another node.
ann.send({"type": "resign"})
over = bob.until(lambda m: m["type"] == "event" and m["kind"] == "game_over")
if not over.get("ratings"):
    fail(f"the duel was not rated: {over}")
reader = Conn(c.address)
for _ in range(100):
    profile = reader.request({"type": "profile", "name": "bob"})
    if profile.get("wins") == 1:
        break
    time.sleep(0.1)
else:
    fail(f"bob's profile on c: {profile}")
print("nodes: the rated game's result is in bob's profile, read on c")

# 7. An operator drains c (`setgame nodes drain`): its health says not ready, and a new match
# the hash gives c is placed on another node; resumed, c takes them again.
def rendezvous(match, among):
    weight = lambda node: int.from_bytes(hashlib.sha256(match.encode() + b"\0" + node.encode()).digest()[:8], "big")
    return max(among, key=lambda node: (weight(node), node))


def nodes_cli(*words):
    return subprocess.run([BIN, "nodes", *words, "--store", pg_url], capture_output=True, text=True, timeout=DEADLINE_S)


def check(node):
    return subprocess.run([BIN, "serve", "--check", "--address", node.address], capture_output=True, text=True, timeout=DEADLINE_S)


drained = nodes_cli("drain", "c")
if drained.returncode != 0:
    fail(f"setgame nodes drain c: {drained.stderr}")
for _ in range(100):
    probe = check(c)
    if probe.returncode == 1 and "lease draining" in probe.stdout:
        break
    time.sleep(0.1)
else:
    fail(f"c never said it drains: {probe.stdout} {probe.stderr}")
listing = nodes_cli().stdout
if not any(line.split()[:1] == ["c"] and "draining" in line for line in listing.splitlines()):
    fail(f"setgame nodes does not show c draining: {listing}")
fresh = next(f"drain{i}" for i in range(1000) if rendezvous(f"drain{i}", ["a", "b", "c"]) == "c")
fay, _, _, _ = join(c.address, {"type": "join", "name": "fay", "match": fresh})
if fay.address == c.address:
    fail(f"{fresh} was placed on the drained node c")
def await_ready(node, after):
    for _ in range(100):
        if check(node).returncode == 0:
            return
        time.sleep(0.1)
    fail(f"{node.name} never said it is ready {after}")


nodes_cli("resume", "c")
await_ready(c, "again after resume")
print(f"nodes: c drained (health not ready, {fresh} placed on {fay.address} instead), then resumed")

# 8. A second server started under b's name while b serves (another machine, another folder): it
# watches b's row for one lease, sees b renew it, and refuses to start; b serves on.
twin = subprocess.run([BIN, "serve", "--host", HOSTS["b"], "--port", str(free_port(HOSTS["b"])), "--data", os.path.join(work, "twin"),
                       "--store", pg_url, "--node", "b", "--advertise", f"{HOSTS['b']}:1"], capture_output=True, text=True, timeout=60)
if twin.returncode == 0 or "another server is node b" not in twin.stderr + twin.stdout:
    fail(f"a second server under b's name: exit {twin.returncode}, {twin.stdout} {twin.stderr}")
probe = check(b)
if probe.returncode != 0:
    fail(f"b stopped serving after a second server tried its name: {probe.stdout}")
print("nodes: a second server under b's name refused to start; b serves on")

# 9. c killed -9 and started again at once, its lease still running in the store: it watches its
# name for a lease (nobody renews it), takes it, and serves; its lease runs from then, so its
# log never says the lease lapsed (it did, when the lease was counted from before the watch).
log_path = os.path.join(work, "c.log")
before = os.path.getsize(log_path)
c.kill()
c.start()
await_ready(c, "after its restart")
with open(log_path) as log:
    log.seek(before)
    said = log.read()
if "watching" not in said or "registered" not in said or "lapsed" in said:
    fail(f"c's log after a restart while its lease ran:\n{said}")
print("nodes: c killed -9 and started at once: it watched its name, took it, and its lease never lapsed")
print("nodes: three nodes on one PostgreSQL: pairing, redirects, a spectator, a kill, a database restart, a drain, a twin, a quick restart")
