"""Two arena players on raw connections for the TV's end-to-end run (issue 44): ann and bob join
the arena and play ROUNDS duels against each other, each joined on its own arena connection with
its pairing's token. In each duel, once both are seated, it prints "dealt N" and waits until the
file DIR/go-N exists (the script saw the TV show the duel's cards); then bob resigns. In the last
duel both ask to be paused first, so no duel follows it and the TV goes back to the standings.
Usage: arena_tv_players.py PORT ARENA DIR ROUNDS; prints "joined", "dealt N", "over N"."""
import os, sys, time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from e2e_support import Connection, fail  # noqa: E402

port, arena, folder, rounds = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
players = {name: Connection(f"127.0.0.1:{port}") for name in ("ann", "bob")}


def asked(me, message, key):
    me.send(dict(message, id=key))
    answer = me.until(lambda m: m.get("id") == key)
    if answer["type"] != "arena":
        fail(f"{message['type']} was answered {answer}")
    return answer


def wait_file(path):
    while not os.path.exists(path):
        time.sleep(0.1)


for name, me in players.items():
    asked(me, {"type": "arena_join", "arena": arena, "name": name}, "j")
print("joined", flush=True)
for duel in range(1, rounds + 1):
    for name, me in players.items():
        pairing = me.until(lambda m: m["type"] == "arena_pairing")
        if pairing["match"] != f"arena-{arena}-{duel}":
            fail(f"{name}'s pairing {duel} was {pairing}")
        me.send({"type": "join", "name": name, "match": pairing["match"], "token": pairing["token"]})
    for name, me in players.items():
        seated = me.until(lambda m: m["type"] in ("snapshot", "error"))
        if seated["type"] == "error":
            fail(f"{name}'s join of duel {duel} was refused: {seated}")
        if duel == rounds:
            asked(me, {"type": "arena_pause"}, f"p{duel}")
    print(f"dealt {duel}", flush=True)
    wait_file(os.path.join(folder, f"go-{duel}"))
    players["bob"].send({"type": "resign"})
    for me in players.values():
        me.until(lambda m: m["type"] == "event" and m["kind"] == "game_over")
    print(f"over {duel}", flush=True)
# Until the script is done with the TV: a closed connection would pause, not end, the player.
wait_file(os.path.join(folder, "done"))
