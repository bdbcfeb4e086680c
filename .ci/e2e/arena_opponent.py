"""An arena opponent on one raw connection (issue 44): joins the arena and plays ROUNDS duels
against the person, each joined on that same connection with its pairing's token. In each duel,
once dealt, it asks to be paused (taking hold when the duel ends, so the person waits at the
standings), waits until the file DIR/go-N exists (the script saw the person's terminal dealt),
resigns, and waits until the arena counts the duel: its pushes keep coming after `game_over`.
Between duels it waits for DIR/resume-N before `arena_resume`, so the next pairing comes then.
Usage: arena_opponent.py PORT ARENA NAME PERSON DIR ROUNDS; prints "joined", then "counted N"."""
import os, sys, time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from e2e_support import Connection, fail  # noqa: E402

port, arena, name, person, folder, rounds = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4], sys.argv[5], int(sys.argv[6])
me = Connection(f"127.0.0.1:{port}")


def entry(view, who):
    return next((e for e in view["standings"] if e["name"] == who), None)


def wait_file(path):
    while not os.path.exists(path):
        time.sleep(0.1)


def asked(message, key):
    me.send(dict(message, id=key))
    answer = me.until(lambda m: m.get("id") == key)
    if answer["type"] != "arena":
        fail(f"{name}: {message['type']} was answered {answer}")
    return answer


asked({"type": "arena_join", "arena": arena, "name": name}, "j")
print("joined", flush=True)
for duel in range(1, rounds + 1):
    if duel > 1:
        wait_file(os.path.join(folder, f"resume-{duel}"))
        asked({"type": "arena_resume"}, f"r{duel}")
    pairing = me.until(lambda m: m["type"] == "arena_pairing")
    if pairing["opponent"] != person:
        fail(f"{name} was paired with {pairing['opponent']}, not {person}")
    me.send({"type": "join", "name": name, "match": pairing["match"], "token": pairing["token"]})
    seated = me.until(lambda m: m["type"] in ("snapshot", "error"))
    if seated["type"] == "error":
        fail(f"{name}'s join of duel {duel} on its arena connection was refused: {seated}")
    if seated["state"] != "playing":
        me.until(lambda m: m["type"] == "event" and m["kind"] == "game_started")
    asked({"type": "arena_pause"}, f"p{duel}")
    wait_file(os.path.join(folder, f"go-{duel}"))
    me.send({"type": "resign"})
    me.until(lambda m: m["type"] == "event" and m["kind"] == "game_over")
    counted = me.until(lambda m: m["type"] == "arena" and (entry(m, person) or {}).get("games") == duel)
    if not (entry(counted, name) or {}).get("paused"):
        fail(f"{name}'s pause did not take hold when duel {duel} ended: {counted}")
    print(f"counted {duel}", flush=True)
