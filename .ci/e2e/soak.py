"""Randomized kill -9 soak: bot-versus-bot duels with rematches, the real server killed with SIGKILL
at random instants, restarted on the same data folder and port. After every restart each player
comes back with its token and a lastSeq, and every event line it had received before the kill
(so every acknowledged action) must come back byte for byte at the same seq. At the end no journal
is damaged, and every match finishes a game after the last restart; every game's revealed seed
keeps its commitment, and no seed is ever dealt twice."""
import hashlib, json, os, shutil, random, signal, socket, subprocess, sys, tempfile, threading, time

BIN = os.environ["SETGAME"]
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from e2e_support import find_set  # noqa: E402
KILLS = int(os.environ.get("SOAK_KILLS", "20"))
MATCHES = 3
SEED = int(os.environ.get("SOAK_SEED", str(random.randrange(1 << 30))))
RULES = ["--set-points-lost-per-second", "0", "--messages-per-second", "5000"]
rng = random.Random(SEED)
print(f"soak: random seed {SEED} (SOAK_SEED={SEED} repeats the kill instants)")


def fail(message):
    print("FAIL:", message, f"(data in {DATA})", file=sys.stderr)
    if server is not None and server.poll() is None:
        server.kill()
    os._exit(1)


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


server = None
PORT = free_port()
DATA = tempfile.mkdtemp(prefix="setgame-soak-")
LOG = open(os.path.join(DATA, "serve.log"), "a")


def start():
    global server
    server = subprocess.Popen([BIN, "serve", "--port", str(PORT), "--data", DATA] + RULES,
                              stdout=subprocess.PIPE, stderr=LOG, text=True)
    line = server.stdout.readline()
    if "serving on" not in line:
        fail("serve did not start: " + line)


class Gone(Exception):
    """The server went away (killed): reconnect."""


class Seat:
    def __init__(self, match, name):
        self.match, self.name = match, name
        self.token, self.seat, self.view, self.next_id = None, None, None, 0
        self.received = {}  # seq -> the exact event line, as received
        self.sock = None

    def connect(self, last_seq=None):
        deadline = time.time() + 20
        while True:
            try:
                self.sock = socket.create_connection(("127.0.0.1", PORT), timeout=10)
                break
            except OSError:
                if time.time() > deadline:
                    fail(f"{self.name}: the server did not come back")
                time.sleep(0.05)
        self.file = self.sock.makefile("rb")
        if self.read()["type"] != "welcome":
            raise Gone()
        join = {"type": "join", "name": self.name, "match": self.match}
        if self.token:
            join["token"] = self.token
            if last_seq is not None:
                join["lastSeq"] = last_seq
        self.send(join)

    def close(self):
        try:
            self.sock.close()
        except OSError:
            pass

    def send(self, message):
        try:
            self.sock.sendall((json.dumps(message) + "\n").encode())
        except OSError:
            raise Gone()

    def read(self):
        try:
            raw = self.file.readline()
        except OSError:
            raise Gone()
        if not raw.endswith(b"\n"):
            raise Gone()  # end of stream, or a line cut by the kill
        message = json.loads(raw)
        kind = message["type"]
        if kind == "joined":
            self.token, self.seat = message.get("token", self.token), message["seat"]
        elif kind == "snapshot":
            self.view = message
        elif kind == "event":
            self.received[message["seq"]] = raw
        elif kind == "error" and message.get("fatal"):
            fail(f"{self.name}: fatal error {message}")
        return message

    def request(self, message):
        self.next_id += 1
        ident = self.next_id
        self.send(dict(message, id=ident))
        while True:
            reply = self.read()
            if reply["type"] in ("ack", "error") and reply.get("id") == ident:
                return reply

    def sync(self):
        self.next_id += 1
        self.send({"type": "snapshot", "id": self.next_id})
        while True:
            reply = self.read()
            if reply["type"] == "snapshot":
                return self.view
            if reply["type"] == "error" and reply.get("id") == self.next_id:
                if reply["code"] == "not_joined":
                    raise Gone()
                return self.view


stop_after_game = threading.Event()
seeds_seen = {}  # seed -> (match, game)
seeds_lock = threading.Lock()
checked = {"lines": 0, "restores": 0, "games": 0, "rematch_lines": 0}


class Duel(threading.Thread):
    def __init__(self, index):
        super().__init__(daemon=True)
        self.match = f"soak-{index}"
        self.seats = [Seat(self.match, f"ann{index}"), Seat(self.match, f"bob{index}")]
        self.commitments = {}  # game -> commitment
        self.games_after_last_restart = 0
        self.error = None
        # Set once both seats are taken: the kills start after every duel is under way, so none
        # lands in a first join (which has no token to come back with yet).
        self.ready = threading.Event()

    def run(self):
        try:
            for seat in self.seats:
                seat.connect()
            self.seats[0].sync()
            self.ready.set()
            while True:
                try:
                    if self.step():
                        return
                except Gone:
                    self.restore()
        except Exception as error:  # noqa: BLE001 - reported by the main thread
            self.error = repr(error)

    def restore(self):
        """Both players come back; what they had received must come back byte for byte."""
        while True:
            for seat in self.seats:
                seat.close()
            try:
                before = [dict(seat.received) for seat in self.seats]
                lasts = [max(b) - 30 if b and max(b) > 30 else None for b in before]
                for seat, last in zip(self.seats, lasts):
                    seat.connect(last)
                for seat, last, old in zip(self.seats, lasts, before):
                    ident = "restored"
                    seat.send({"type": "ping", "time": 1, "id": ident})
                    fresh, snapshot = {}, False
                    seat.received = {}
                    while True:
                        reply = seat.read()
                        if reply["type"] == "snapshot":
                            snapshot = True
                        if reply["type"] == "pong" and reply.get("id") == ident:
                            break
                    fresh = seat.received
                    if last is not None and snapshot:
                        fail(f"{seat.name}: a snapshot instead of the events after {last}")
                    for seq, line in old.items():
                        if last is not None and seq > last:
                            if fresh.get(seq) != line:
                                fail(f"{seat.name} seq {seq} differs after the restart:\n before {line!r}\n after  {fresh.get(seq)!r}")
                            checked["lines"] += 1
                            if b'"kind":"rematch_' in line or b'"kind":"game_started"' in line:
                                checked["rematch_lines"] += 1
                    seat.received = {**{s: l for s, l in old.items() if last is None or s <= last}, **fresh}
                checked["restores"] += 1
                self.games_after_last_restart = 0
                self.seats[0].sync()
                return
            except Gone:
                time.sleep(0.05)

    def note(self, view):
        game, commitment = view["game"], view["commitment"]
        if commitment:
            known = self.commitments.setdefault(game, commitment)
            if known != commitment:
                fail(f"{self.match} game {game}: commitment changed from {known} to {commitment}")
        if view["state"] == "over" and view["seed"] is not None and game not in self.__dict__.setdefault("verified", set()):
            seed = view["seed"]
            digest = hashlib.sha256(f"setgame:{seed}".encode()).hexdigest()
            if digest != self.commitments.get(game):
                fail(f"{self.match} game {game}: seed {seed} does not match its commitment")
            with seeds_lock:
                if seed in seeds_seen and seeds_seen[seed] != (self.match, game):
                    fail(f"seed {seed} dealt twice: {seeds_seen[seed]} and {(self.match, game)}")
                seeds_seen[seed] = (self.match, game)
            self.verified.add(game)
            self.games_after_last_restart += 1
            checked["games"] += 1

    def step(self):
        """One move of the duel; True when the soak is over for this match."""
        ann, bob = self.seats
        bob.sync()  # both keep reading, so what each has received is close to what was sent
        view = ann.sync()
        self.note(view)
        if view["state"] == "over":
            if stop_after_game.is_set() and self.games_after_last_restart > 0:
                return True
            for seat in self.seats:
                if seat.seat not in view["rematch"]:
                    seat.request({"type": "rematch"})
            return False
        if view["state"] != "playing" or view.get("forfeitAt") is not None:
            time.sleep(0.02)
            return False
        window = view["window"]
        by_seat = {seat.seat: seat for seat in self.seats}
        if window:
            holder = by_seat[window["holder"]]
            found = find_set(view["table"])
            if window["kind"] != "claim" and (found is None or rng.random() < 0.3):
                holder.request({"type": "pass"})
                return False
            if found is None:
                holder.request({"type": "pass"})
                return False
            chosen = (view["selection"] or {}).get("cards", [])
            for card in found:
                if card not in chosen:
                    holder.request({"type": "select", "card": card})
            return False
        actor = rng.choice(self.seats)
        found = find_set(view["table"])
        if found is None or rng.random() < 0.05:
            actor.request({"type": "deal"})
            return False
        if actor.request({"type": "claim"})["type"] == "ack":
            for card in found:
                actor.request({"type": "select", "card": card})
        return False


started = time.time()
start()
duels = [Duel(i) for i in range(MATCHES)]
for duel in duels:
    duel.start()
for duel in duels:
    if not duel.ready.wait(timeout=60) or duel.error:
        fail(f"{duel.match} did not begin: {duel.error}")
for kill in range(KILLS):
    time.sleep(rng.uniform(0.1, 1.0))
    for duel in duels:
        if duel.error:
            fail(f"{duel.match}: {duel.error}")
    server.send_signal(signal.SIGKILL)
    server.wait()
    start()
stop_after_game.set()
for duel in duels:
    duel.join(timeout=60)
    if duel.is_alive():
        fail(f"{duel.match} did not finish a game after the last restart")
    if duel.error:
        fail(f"{duel.match}: {duel.error}")
server.send_signal(signal.SIGTERM)
if server.wait(timeout=10) != 0:
    fail("serve did not exit 0 on SIGTERM")

log = open(os.path.join(DATA, "serve.log")).read()
damaged = os.listdir(os.path.join(DATA, "damaged"))
if damaged or "damaged" in log:
    fail(f"damaged journals: {damaged}\n" + "\n".join(l for l in log.splitlines() if "damaged" in l))
if checked["restores"] < KILLS * MATCHES:
    fail(f"only {checked['restores']} restores for {KILLS} kills of {MATCHES} matches")
shutil.rmtree(DATA)
print(f"soak: {KILLS} kill -9s of {MATCHES} bot duels in {time.time() - started:.1f} s: "
      f"{checked['restores']} restores, {checked['lines']} event lines compared byte for byte "
      f"({checked['rematch_lines']} of them rematch requests and new games), "
      f"{checked['games']} games ended with verified seeds ({len(seeds_seen)} distinct), no journal damaged")
