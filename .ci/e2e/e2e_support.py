"""What the Python end-to-end scripts share: the real `setgame serve` as a child process, a player
on a raw connection, and the first set on a table (found independently of the Swift rules, from
the card ids' base-3 digits)."""
import atexit, json, os, signal, socket, subprocess, sys, time

BIN = os.environ["SETGAME"]
STARTED = []
# A failing run must not leave servers behind.
atexit.register(lambda: [p.kill() for p in STARTED if p.poll() is None])


def fail(message):
    print("FAIL:", message, file=sys.stderr)
    for proc in STARTED:
        if proc.poll() is None:
            proc.kill()
    sys.exit(1)


class Connection:
    """One raw connection speaking the protocol, and its view of the match kept from snapshots
    and events (its table, deck and last seq) and its seat token; its first line must be `welcome`."""

    def __init__(self, address, timeout_s=30):
        host, port = address.rsplit(":", 1)
        self.address = address
        self.sock = socket.create_connection((host, int(port)), timeout=timeout_s)
        self.file = self.sock.makefile("rb")
        self.view, self.token, self.next_id = None, None, 0
        if self.read()["type"] != "welcome":
            fail(f"{address}: no welcome first")

    def send(self, message):
        self.sock.sendall((json.dumps(message) + "\n").encode())

    def read(self):
        line = self.file.readline()
        if not line:
            raise EOFError(f"{self.address} closed the connection")
        message = json.loads(line)
        if message["type"] == "snapshot":
            self.view = message
        elif message["type"] == "joined":
            self.token = message.get("token", self.token)
        elif message["type"] == "event" and self.view is not None:
            self.view["seq"] = message["seq"]
            if message["kind"] in ("table", "game_started"):
                self.view["table"] = message["table"]
                self.view["deck"] = message.get("deck", self.view.get("deck"))
        return message

    def until(self, predicate):
        while True:
            message = self.read()
            if predicate(message):
                return message

    def request(self, message):
        """Sends with an id; the answer that carries it (an ack, an error, a profile, a list page)."""
        self.next_id += 1
        self.send(dict(message, id=self.next_id))
        return self.until(lambda m: m["type"] in ("ack", "error", "profile", "matches") and m.get("id") == self.next_id)

    def close(self):
        self.sock.close()

class Server:
    """`setgame serve` on `data`, its stderr appended to `log`; `port` 0 picks a free one."""

    def __init__(self, data, log, port=0, arguments=()):
        self.data = data
        self.proc = subprocess.Popen([BIN, "serve", "--port", str(port), "--seed", "42", "--data", data] + list(arguments),
                                     stdout=subprocess.PIPE, stderr=open(log, "a"), text=True)
        STARTED.append(self.proc)
        line = self.proc.stdout.readline()
        if "serving on" not in line:
            fail("serve did not start: " + line)
        self.port = int(line.strip().rsplit(":", 1)[1])

    def kill(self):
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait()

    def stop(self):
        self.proc.send_signal(signal.SIGTERM)
        if self.proc.wait(timeout=10) != 0:
            fail("serve did not exit 0 on SIGTERM")


class JoinRefused(Exception):
    """A join the server answered with an error, for a caller that expects some (`refusals_raise`)."""


class Player:
    """A player on its own connection: joins `match` (or resumes its seat with `token`), as an
    account when given its key, and keeps its view of the match up to date from the events. A
    refused join fails the check, or raises `JoinRefused` with `refusals_raise`."""

    def __init__(self, port, name, match, token=None, account=None, refusals_raise=False):
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=10)
        self.file = self.sock.makefile("rb")
        self.view, self.token, self.seat, self.next_id = None, token, None, 0
        if self.read()["type"] != "welcome":
            fail(f"{name}: no welcome first")
        join = {"type": "join", "name": name, "match": match}
        if token:
            join["token"] = token
        if account:
            join["account"] = account
        self.send(join)
        while self.view is None:
            reply = self.read()
            if reply["type"] == "error":
                if refusals_raise:
                    self.sock.close()
                    raise JoinRefused(reply.get("code"))
                fail(f"{name} could not join: {reply}")

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

    def until(self, predicate):
        """Reads until a message `predicate` accepts, and returns it."""
        while True:
            message = self.read()
            if predicate(message):
                return message

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
        """Asks for a snapshot and returns the view it gives, backing off while rate limited."""
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


def find_set(table):
    digits = lambda c: (c // 27, c // 9 % 3, c // 3 % 3, c % 3)
    for i in range(len(table)):
        for j in range(i + 1, len(table)):
            for k in range(j + 1, len(table)):
                if all((a + b + c) % 3 == 0 for a, b, c in zip(digits(table[i]), digits(table[j]), digits(table[k]))):
                    return [table[i], table[j], table[k]]
    return None


def a_set_on_the_table(player):
    """A set on `player`'s table: while it holds none (a first twelve has none in about one deal
    in thirty), `player` deals three more and waits for the new table."""
    while (cards := find_set(player.view["table"])) is None:
        player.send({"type": "deal"})
        player.until(lambda m: m["type"] == "event" and m["kind"] == "table")
    return cards


def throwaway_postgres():
    """A PostgreSQL of its own for this run (`.ci/postgres.sh`), stopped at exit: its URL."""
    script = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "postgres.sh")
    url, folder = subprocess.run([script, "start"], check=True, capture_output=True, text=True).stdout.split()
    atexit.register(lambda: subprocess.run([script, "stop", folder]))
    return url


def free_port(host="127.0.0.1"):
    """A port nobody listens on at `host` now."""
    with socket.socket() as probe:
        probe.bind((host, 0))
        return probe.getsockname()[1]
