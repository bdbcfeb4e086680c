"""Wire-side helpers of .ci/e2e/door-nodes.sh and .ci/door-bench-nodes (the ssh door across nodes):

  name NODE PREFIX NODES…      the first PREFIX0, PREFIX1, … that rendezvous hashing places on NODE
                               among NODES (SHA-256 of "match\\0node", as Sources/SetServer/Cluster/Rendezvous.swift)
  set-keys HOST:PORT MATCH     watches MATCH and prints the keys of a set on its table, as a
                               player's screen labels a fresh table (1–9, 0, a, b; fifteen cards
                               add e, f, g), or "deal" when a fresh twelve holds no set
  wait-in HOST:PORT MATCH NAME  joins MATCH as a player (no account), prints "seated" once it is,
                               and stays until killed
  attack HOST:PORT MATCH NAME TICKET
                               tries to sit as the door player NAME in MATCH over TCP, every way
                               the wire allows, and fails unless each is refused
"""
import hashlib, json, os, secrets, socket, sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
os.environ.setdefault("SETGAME", "setgame")  # e2e_support reads it; nothing here starts a server
from e2e_support import fail, find_set  # noqa: E402

LABELS = "1234567890abefg"  # a table of fifteen names its last three e, f and g


def weight(match, node):
    return int.from_bytes(hashlib.sha256(match.encode() + b"\0" + node.encode()).digest()[:8], "big")


def home(match, nodes):
    return max(nodes, key=lambda node: (weight(match, node), node))


class Conn:
    def __init__(self, address):
        host, port = address.rsplit(":", 1)
        self.sock = socket.create_connection((host, int(port)), timeout=20)
        self.file = self.sock.makefile("rb")
        first = self.read()
        if first is None or first["type"] != "welcome":
            fail(f"{address}: no welcome first: {first}")

    def send(self, message):
        self.sock.sendall((json.dumps(message) + "\n").encode())

    def read(self):
        line = self.file.readline()
        return json.loads(line) if line else None

    def answer(self):
        """The first reply that answers a join or door line: joined, redirect or error."""
        while True:
            message = self.read()
            if message is None or message["type"] in ("joined", "redirect", "error"):
                return message

    def closed(self):
        """Whether the server closes the connection (after whatever it still sends)."""
        try:
            while self.read() is not None:
                pass
            return True
        except (socket.timeout, ConnectionResetError):
            return False


def set_keys(address, match):
    watcher = Conn(address)
    watcher.send({"type": "join", "role": "spectator", "name": "referee", "match": match})
    while True:
        message = watcher.read()
        if message is None:
            fail(f"watching {match} at {address}: the connection closed")
        if message["type"] == "error":
            fail(f"watching {match} at {address}: {message}")
        if message["type"] == "snapshot":
            break
    table = message["table"]
    if len(table) not in (12, 15):
        fail(f"{match}'s table holds {len(table)} cards, not a fresh twelve (or fifteen once dealt): {message}")
    cards = find_set(table)
    if not cards and len(table) == 12:
        print("deal")  # twelve with no set, one deal in about thirty: the script deals three more
        return
    if not cards:
        fail(f"no set on {match}'s table {table}")
    print(" ".join(LABELS[table.index(card)] for card in cards))


def refused(address, what, messages, code, fatal=None):
    """Sends `messages` on a new connection; fails unless the last is answered with error `code`."""
    conn = Conn(address)
    for message in messages:
        conn.send(message)
    reply = conn.answer()
    if reply is None or reply["type"] != "error" or reply["code"] != code:
        fail(f"{what}: expected {code}, got {reply}")
    if fatal is not None and reply["fatal"] != fatal:
        fail(f"{what}: {code} should {'' if fatal else 'not '}be fatal: {reply}")
    if fatal and not conn.closed():
        fail(f"{what}: the connection stayed open after a fatal {code}")
    print(f"attack: {what}: {code}")


def attack(address, match, name, ticket):
    join = {"type": "join", "name": name, "match": match}
    made_up = secrets.token_urlsafe(32)
    refused(address, "a made-up ticket", [dict(join, ticket=made_up)], "bad_ticket", fatal=True)
    refused(address, "the key's own ticket, replayed", [dict(join, ticket=ticket)], "bad_ticket", fatal=True)
    refused(address, "the key's door name without a ticket", [dict(join, account=secrets.token_hex(32))], "name_taken")
    refused(address, "the key's door name as the account", [dict(join, account=name)], "bad_field")
    refused(address, "a door line over TCP", [{"type": "door", "fingerprint": "SHA256:" + "A" * 42 + "Q", "address": "203.0.113.5"}],
            "not_a_door", fatal=False)


def wait_in(address, match, name):
    player = Conn(address)
    player.send({"type": "join", "name": name, "match": match})
    reply = player.answer()
    if reply is None or reply["type"] != "joined":
        fail(f"{name} could not wait in {match} at {address}: {reply}")
    print("seated", flush=True)
    player.sock.settimeout(None)
    while player.read() is not None:
        pass


def main(argv):
    if len(argv) >= 4 and argv[0] == "name":
        node, prefix, nodes = argv[1], argv[2], argv[3:]
        print(next(f"{prefix}{i}" for i in range(100000) if home(f"{prefix}{i}", nodes) == node))
    elif len(argv) == 3 and argv[0] == "set-keys":
        set_keys(argv[1], argv[2])
    elif len(argv) == 4 and argv[0] == "wait-in":
        wait_in(*argv[1:])
    elif len(argv) == 5 and argv[0] == "attack":
        attack(*argv[1:])
    else:
        print(__doc__, file=sys.stderr)
        sys.exit(64)


main(sys.argv[1:])
