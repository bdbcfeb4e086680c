"""Kill -9 the server at several points of a duel and check nothing acknowledged is lost."""
import atexit, glob, json, os, signal, socket, subprocess, sys, tempfile, time

RULES = ["--set-points-lost-per-second", "0"]  # points independent of machine speed


sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from e2e_support import BIN, fail, find_set, Server as Serve  # noqa: E402


class Server(Serve):
    def __init__(self, data, port=0):
        super().__init__(data, log=os.path.join(data, "serve.log"), port=port, arguments=RULES)


class Player:
    def __init__(self, port, name, token=None, last_seq=None):
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=10)
        self.file = self.sock.makefile("rb")
        self.view, self.token, self.seat, self.next_id = None, token, None, 0
        assert self.read()["type"] == "welcome"
        join = {"type": "join", "name": name, "match": "km"}
        if token:
            join["token"] = token
        self.send(join)
        while self.view is None:
            self.read()

    def send(self, message):
        self.sock.sendall((json.dumps(message) + "\n").encode())

    def read(self):
        line = self.file.readline()
        if not line:
            raise EOFError("connection closed")
        message = json.loads(line)
        kind = message["type"]
        if kind == "joined":
            self.token, self.seat = message.get("token", self.token), message["seat"]
        elif kind == "snapshot":
            self.view = message
        elif kind == "event" and self.view is not None:
            self.apply(message)
        return message

    def apply(self, event):
        view, kind = self.view, event["kind"]
        view["seq"] = event["seq"]
        if kind == "table":
            view["table"], view["deck"] = event["table"], event["deck"]
        elif kind in ("set_taken", "not_a_set", "penalty", "hint"):
            for player in view["players"]:
                if player["seat"] == event["seat"]:
                    player["score"] = event["score"]
        elif kind == "window_opened":
            view["window"] = event["window"]
        elif kind == "window_closed":
            view["window"] = None
        elif kind == "selection":
            view["selection"] = {"seat": event["seat"], "cards": event["cards"]} if event["cards"] else None
        elif kind == "game_over":
            view["state"], view["result"], view["seed"] = "over", event["result"], event["seed"]
        elif kind == "game_started":
            view["table"], view["deck"], view["state"] = event["table"], event["deck"], "playing"

    def request(self, message):
        """Sends with an id and waits for its ack (or error): returns the reply. Backs off and
        sends again when rate limited, as a polite client does."""
        while True:
            self.next_id += 1
            self.send(dict(message, id=self.next_id))
            while True:
                reply = self.read()
                if reply["type"] in ("ack", "error") and reply.get("id") == self.next_id:
                    break
            if reply.get("code") != "rate_limited":
                return reply
            time.sleep(0.2)

    def sync(self):
        while True:
            self.next_id += 1
            self.send({"type": "snapshot", "id": self.next_id})
            while True:
                reply = self.read()
                if reply["type"] == "snapshot":
                    return self.view
                if reply["type"] == "error" and reply.get("id") == self.next_id:
                    break
            time.sleep(0.2)

    def close(self):
        self.sock.close()


def state(view):
    """What must survive a restart."""
    scores = sorted((p["seat"], p["score"]) for p in view["players"])
    window = view["window"] and (view["window"]["kind"], view["window"]["holder"])
    return (view["table"], view["deck"], scores, window, view["selection"], view["result"], view["commitment"])


def turn(actor, other, burst=False):
    """The actor takes the first set it sees (claim + three picks), or deals. Acknowledged one by one,
    unless `burst`: then everything is sent at once and only the claim's ack is awaited."""
    table = actor.sync()["table"]
    found = find_set(table)
    if found is None:
        reply = actor.request({"type": "deal"})
        if reply["type"] == "error":
            fail("deal refused: " + reply["code"])
        other.sync()
        if other.view["window"] and other.view["window"]["holder"] == other.seat:
            other.request({"type": "pass"})
        return
    window = actor.view["window"]
    if not (window and window["holder"] == actor.seat):
        if burst:
            actor.send({"type": "claim", "id": "burst"})
            for card in found:
                actor.send({"type": "select", "card": card})
            while True:
                reply = actor.read()
                if reply.get("id") == "burst":
                    if reply["type"] != "ack":
                        fail("the burst's claim was refused: " + reply["code"])
                    return
        reply = actor.request({"type": "claim"})
        if reply["type"] == "error":
            fail("claim refused: " + reply["code"])
    chosen = (actor.view["selection"] or {}).get("cards", []) if actor.view["selection"] else []
    for card in found:
        if card not in chosen:
            reply = actor.request({"type": "select", "card": card})
            if reply["type"] == "error":
                fail("select refused: " + reply["code"])


def play(data, kills):
    """Plays the scripted duel to the end; kills the server after the turns in `kills`."""
    server = Server(data)
    ann, bob = Player(server.port, "ann"), Player(server.port, "bob")
    number, restarts = 0, 0
    while True:
        ann.sync(), bob.sync()
        if ann.view["state"] == "over":
            break
        action = kills.get(number)
        actor, other = (ann, bob) if number % 2 == 0 else (bob, ann)
        window = ann.view["window"]
        if window and window["holder"] != actor.seat:
            actor, other = other, actor  # whoever holds a window acts next
        scores_before = dict((p["seat"], p["score"]) for p in actor.sync()["players"])
        turn(actor, other, burst=(action == "burst"))
        number += 1
        if action:
            before = None if action == "burst" else state(ann.sync())
            server.kill()
            if action == "torn":
                journal = os.path.join(data, "km.jsonl")
                with open(journal, "ab") as handle:
                    handle.write(b'{"type":"act","seat":1,"action":"sel')
            ann.close(), bob.close()
            server = Server(data)
            restarts += 1
            ann = Player(server.port, "ann", token=ann.token)
            bob = Player(server.port, "bob", token=bob.token)
            after = state(ann.sync())
            if before is not None and after != before:
                fail(f"after kill {restarts} ({action}) the match differs:\n before {before}\n after  {after}")
            if action == "burst":
                # Only the claim was acknowledged: its window must be open, or its set already taken.
                seat = actor.seat
                window = ann.view["window"]
                score = dict((p["seat"], p["score"]) for p in ann.view["players"])[seat]
                if not ((window and window["holder"] == seat) or score > scores_before[seat]):
                    fail(f"the acknowledged claim was lost: window {window}, score {score}")
            print(f"restart: kill -9 #{restarts} after turn {number} ({action}): match restored" +
                  (" exactly" if before is not None else ", acknowledged claim kept"))
        if number > 300:
            fail("the duel did not end")
    final = state(ann.sync())
    server.stop()
    return final, restarts


reference, _ = play(tempfile.mkdtemp(prefix="setgame-ref-"), {})
data = tempfile.mkdtemp(prefix="setgame-kill-")
final, restarts = play(data, {3: "between", 8: "burst", 13: "torn", 20: "between"})
if restarts != 4:
    fail(f"expected 4 restarts, made {restarts}")
if final != reference:
    fail(f"the restarted match ended differently:\n {final}\n {reference}")
print("restart: after 4 kills the duel ended exactly as the uninterrupted one:", final[2])
log = open(os.path.join(data, "serve.log")).read()
if "dropped a torn last line" not in log:
    fail("the torn journal line was not reported")

finished = glob.glob(os.path.join(data, "finished", "km-*.jsonl"))
if len(finished) != 1:
    fail(f"expected one finished journal, found {finished}")
out = subprocess.run([BIN, "replay", finished[0]], capture_output=True, text=True)
if out.returncode != 0 or "matches its commitment" not in out.stdout or "took a set" not in out.stdout:
    fail("replay: " + out.stdout[-500:] + out.stderr)
print("restart: setgame replay printed", len(out.stdout.splitlines()), "lines and checked the seed")
