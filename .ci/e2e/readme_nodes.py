"""The protocol side of .ci/e2e/readme-nodes.sh: what a player or a probe does there that a tmux
pane cannot tell the script. Subcommands:
  rated-game ADDRESS            ann and bob (accounts) play a rated duel to its end at ADDRESS
  home MATCH                    the node (a, b or c) rendezvous hashing places MATCH on
  seat ADDRESS MATCH DIR        dan holds a seat in MATCH at ADDRESS; once his rival is dealt, writes
                                DIR/cards (how many are on the table: 12, or 15 when the first
                                twelve held no set and dan dealt more) and DIR/set (a set's labels,
                                as the rival's screen names them); once the
                                rival took it, DIR/deck (the deck left); then waits until DIR/stop
  away ADDRESS MATCH            asks ADDRESS for MATCH until it answers node_away; prints it
  resume ADDRESS MATCH TOKEN    dan takes his seat back with TOKEN (following redirects); prints joined"""
import hashlib, json, os, socket, sys, time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from e2e_support import Connection, a_set_on_the_table, fail  # noqa: E402

DEADLINE_S = 60
# The keys cards take on a first table, in table order (SetScreen's CardLabels).
LABELS = "1234567890abefgimnotuvwxyz"


class Conn(Connection):
    def __init__(self, address):
        super().__init__(address, timeout_s=DEADLINE_S)


def join(address, request):
    """Joins through any node, following redirects as every client does; the connection seated."""
    conn = Conn(address)
    conn.send(request)
    for _ in range(4):
        message = conn.until(lambda m: m["type"] in ("joined", "redirect", "error"))
        if message["type"] == "joined":
            conn.until(lambda m: m["type"] == "snapshot")
            return conn, message
        if message["type"] == "error":
            fail(f"{request.get('name')} could not join at {conn.address}: {message}")
        conn.sock.close()
        conn = Conn(message["address"])
        conn.send(request)
    fail(f"{request.get('name')}: a redirect loop")


def take_a_set(player, rival):
    """`player` claims a set on the table. A first twelve with no set is dealt three more first,
    which opens the rival's window (its chance at the new table): the rival passes it."""
    first = player.view["table"]
    cards = a_set_on_the_table(player)
    if player.view["table"] != first:
        rival.request({"type": "pass"})
    player.request({"type": "claim"})
    for card in cards:
        reply = player.request({"type": "select", "card": card})
    if reply["type"] != "ack":
        fail(f"a set was not acknowledged: {reply}")


def rated_game(address):
    keys = {"ann": "a7" * 32, "bob": "b8" * 32}
    ann, _ = join(address, {"type": "join", "name": "ann", "match": "warmup", "account": keys["ann"]})
    bob, _ = join(address, {"type": "join", "name": "bob", "match": "warmup", "account": keys["bob"]})
    ann.until(lambda m: m["type"] == "event" and m["kind"] == "game_started")
    take_a_set(ann, bob)
    bob.send({"type": "resign"})
    over = ann.until(lambda m: m["type"] == "event" and m["kind"] == "game_over")
    if not over.get("ratings"):
        fail(f"the warm-up duel was not rated: {over}")
    print("rated duel over: ann beat bob")


def home(match):
    weight = lambda node: int.from_bytes(hashlib.sha256(f"{match}\0{node}".encode()).digest()[:8], "big")
    print(max("abc", key=lambda node: (weight(node), node)))


def seat(address, match, folder):
    dan, _ = join(address, {"type": "join", "name": "dan", "match": match})
    with open(os.path.join(folder, "token"), "w") as out:
        out.write(dan.token)
    dan.until(lambda m: m["type"] == "event" and m["kind"] == "game_started")
    cards = a_set_on_the_table(dan)
    # A first twelve with no set (one deal in about thirty) was dealt three more: the rival's
    # screen shows as many as dan's table holds, which DIR/cards says.
    with open(os.path.join(folder, "cards"), "w") as out:
        out.write(f"{len(dan.view['table'])}\n")
    labels = " ".join(LABELS[dan.view["table"].index(card)] for card in cards)
    with open(os.path.join(folder, "set.tmp"), "w") as out:
        out.write(labels)
    os.rename(os.path.join(folder, "set.tmp"), os.path.join(folder, "set"))
    taken = dan.until(lambda m: m["type"] == "event" and m["kind"] == "set_taken")
    dan.until(lambda m: m["type"] == "event" and m["kind"] == "table")
    with open(os.path.join(folder, "deck"), "w") as out:
        out.write(f"{dan.view['deck']} {taken.get('seat')}\n")
    # Stay seated (pings answered) until the script is done with the match.
    dan.sock.settimeout(0.5)
    while not os.path.exists(os.path.join(folder, "stop")):
        try:
            message = dan.read()
            if message["type"] == "ping":
                dan.send({"type": "pong", "time": message["time"]})
        except (socket.timeout, TimeoutError):
            pass
        except EOFError:
            return


def away(address, match):
    for _ in range(DEADLINE_S * 10):
        probe = Conn(address)
        probe.send({"type": "join", "name": "zed", "match": match})
        answer = probe.until(lambda m: m["type"] in ("error", "redirect", "joined"))
        probe.sock.close()
        # Until the dead node's lease runs out the others still send players there.
        if answer["type"] != "redirect":
            break
        time.sleep(0.1)
    if answer.get("code") != "node_away" or answer.get("retryAfterMs", 0) < 1000:
        fail(f"a join for {match} while its node is down: {answer}")
    print(json.dumps(answer))


def resume(address, match, token):
    for _ in range(DEADLINE_S):
        conn = Conn(address)
        conn.send({"type": "join", "name": "dan", "match": match, "token": token})
        answer = conn.until(lambda m: m["type"] in ("joined", "redirect", "error"))
        if answer["type"] == "redirect":
            conn.sock.close()
            conn = Conn(answer["address"])
            conn.send({"type": "join", "name": "dan", "match": match, "token": token})
            answer = conn.until(lambda m: m["type"] in ("joined", "error"))
        if answer["type"] == "joined":
            print(json.dumps(answer))
            return
        if answer.get("code") != "node_away":
            fail(f"dan could not take his seat back: {answer}")
        conn.sock.close()
        time.sleep(answer.get("retryAfterMs", 1000) / 1000)
    fail("dan's node stayed away")


commands = {"rated-game": rated_game, "home": home, "seat": seat, "away": away, "resume": resume}
commands[sys.argv[1]](*sys.argv[2:])
