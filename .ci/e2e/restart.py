"""Kill -9 the server at several points of a duel and check nothing acknowledged is lost."""
import glob, os, subprocess, sys, tempfile

RULES = ["--set-points-lost-per-second", "0"]  # points independent of machine speed
MATCH = "km"


sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from e2e_support import BIN, Player, fail, find_set, Server as Serve  # noqa: E402


class Server(Serve):
    def __init__(self, data, port=0):
        super().__init__(data, log=os.path.join(data, "serve.log"), port=port, arguments=RULES)


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
    ann, bob = Player(server.port, "ann", MATCH), Player(server.port, "bob", MATCH)
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
                journal = os.path.join(data, f"{MATCH}.jsonl")
                with open(journal, "ab") as handle:
                    handle.write(b'{"type":"act","seat":1,"action":"sel')
            ann.close(), bob.close()
            server = Server(data)
            restarts += 1
            ann = Player(server.port, "ann", MATCH, token=ann.token)
            bob = Player(server.port, "bob", MATCH, token=bob.token)
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

finished = glob.glob(os.path.join(data, "finished", f"{MATCH}-*.jsonl"))
if len(finished) != 1:
    fail(f"expected one finished journal, found {finished}")
out = subprocess.run([BIN, "replay", finished[0]], capture_output=True, text=True)
if out.returncode != 0 or "matches its commitment" not in out.stdout or "took a set" not in out.stdout:
    fail("replay: " + out.stdout[-500:] + out.stderr)
print("restart: setgame replay printed", len(out.stdout.splitlines()), "lines and checked the seed")
