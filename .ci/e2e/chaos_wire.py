"""The chaos run's clients (.ci/e2e/chaos.py): one asyncio connection that answers each request
by its id (or by the message a request without one is answered with) and keeps a log of every
request and answer, and the players built on it: a duel player at human pace that follows
redirects, waits out node_away and comes back to its seat after its node is killed, the same
player through the door socket, and a player in the lobby."""
import asyncio, collections, json, os, random, sys, time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from e2e_support import find_set  # noqa: E402

REPLY_S = float(os.environ.get("CHAOS_REPLY_S", "20"))    # an open connection answers a request within this
RETURN_S = float(os.environ.get("CHAOS_RETURN_S", "90"))  # a player is back in its seat within this


class Record:
    """What every client saw, for the checks: findings by kind, acknowledged actions, ends told."""

    def __init__(self):
        self.findings, self.acks, self.ends, self.seated_at, self.counts = [], [], [], {}, {}
        self.t0 = time.monotonic()

    def find(self, kind, text):
        self.findings.append((kind, f"[{time.monotonic() - self.t0:6.1f}s] {text}"))

    def count(self, what, n=1):
        self.counts[what] = self.counts.get(what, 0) + n


class Wire:
    """One connection: a reader task gives every message, in the order read, to `on_message`
    (which keeps the view), then hands an answer to the request waiting for it; a request unanswered for REPLY_S on an open connection is a
    finding, and the connection is then closed."""

    def __init__(self, record, label, reader, writer, on_message):
        self.record, self.label, self.reader, self.writer = record, label, reader, writer
        self.on_message, self.pending, self.next_id, self.closed = on_message, [], 0, False
        self.task = asyncio.ensure_future(self.read_all())

    @classmethod
    async def open(cls, record, label, address, on_message, source=None):
        if address.startswith("unix:"):
            reader, writer = await asyncio.wait_for(asyncio.open_unix_connection(address[5:]), 10)
        else:
            host, port = address.rsplit(":", 1)
            reader, writer = await asyncio.wait_for(
                asyncio.open_connection(host, int(port), local_addr=(source, 0) if source else None), 10)
        wire = cls(record, f"{label}@{address}", reader, writer, on_message)
        first = await wire.wait_for(lambda m: True, REPLY_S)
        if first is None or first.get("type") != "welcome":
            wire.close()
            if first is not None:
                record.find("protocol", f"{wire.label}: the first line was not welcome: {first}")
            raise ConnectionError(f"{address}: no welcome")
        return wire

    async def read_all(self):
        try:
            while True:
                line = await self.reader.readline()
                if not line:
                    break
                message = json.loads(line)
                if message.get("type") == "ping":
                    self.send({"type": "pong", "time": message["time"]})
                # The view follows the stream here, in order: a waiting request's coroutine runs
                # only later, after the messages read with its answer (a snapshot, then events).
                self.on_message(message)
                for entry in list(self.pending):
                    if entry[0](message):
                        self.pending.remove(entry)
                        if not entry[1].done():
                            entry[1].set_result(message)
                        break
        except (OSError, ValueError, asyncio.IncompleteReadError):
            pass
        finally:
            self.closed = True
            for _, future in self.pending:
                if not future.done():
                    future.set_result(None)
            self.pending.clear()

    def send(self, message):
        if not self.closed:
            self.writer.write((json.dumps(message) + "\n").encode())

    def expect(self, predicate):
        """Claims the next message `predicate` accepts from now on, before it can arrive: (its
        future, the entry to give `wait`). The future is None once the connection closes."""
        future = asyncio.get_running_loop().create_future()
        if self.closed:
            future.set_result(None)
        else:
            self.pending.append((predicate, future))
        return (predicate, future)

    async def wait(self, entry, timeout):
        """What `expect`'s entry got, or None: the connection closed, or `timeout` passed."""
        try:
            return await asyncio.wait_for(asyncio.shield(entry[1]), timeout)
        except asyncio.TimeoutError:
            if entry in self.pending:
                self.pending.remove(entry)
            return None

    async def wait_for(self, predicate, timeout):
        """The next message `predicate` accepts, or None: the connection closed, or `timeout` passed."""
        return await self.wait(self.expect(predicate), timeout)

    async def request(self, message, answers=("ack", "error")):
        """Sends `message` with an id; its answer (a message of a type in `answers` echoing the
        id), or None when the connection closed first. No answer within REPLY_S on an open
        connection is a finding."""
        self.next_id += 1
        ident = self.next_id
        self.record.count("requests")
        self.send(dict(message, id=ident))
        reply = await self.wait_for(lambda m: m.get("id") == ident and m.get("type") in answers, REPLY_S)
        if reply is None:
            if self.closed:
                self.record.count("requests cut by a closed connection")
            else:
                self.record.find("unanswered", f"{self.label}: no answer in {REPLY_S:.0f} s to {message}")
                self.close()
        else:
            self.record.count("answered")
        return reply

    def close(self):
        self.closed = True
        try:
            self.writer.close()
        except OSError:
            pass  # closing the transport ends the reader task: it reads the end of the stream


class Player:
    """A duel player: joins `match` through a random node, plays at human pace (claims and picks
    a set it finds), comes back to its seat with its token after a drop, and resigns once its
    duel has seen `resign_after` sets, or once told to wrap up."""

    def __init__(self, run, name, match, rng, account=None, token=None, source=None, resign_after=None, private=False):
        self.run, self.record, self.name, self.match, self.rng = run, run.record, name, match, rng
        self.private = private  # a challenge's duel: only its tokens seat anyone
        self.account, self.token, self.source, self.resign_after = account, token, source, resign_after
        self.wire, self.view, self.seat, self.state = None, {}, None, "new"
        self.sets, self.ticket, self.has_account = 0, None, account is not None
        # The last lines this player saw, in short: printed for a player the checks find fault with.
        self.trace = collections.deque(maxlen=40)

    def note(self, text):
        self.trace.append(f"{time.monotonic() - self.record.t0:6.1f}s {text}")

    # -- the connection
    def join_line(self):
        line = {"type": "join", "name": self.name, "match": self.match}
        if self.account:
            line["account"] = self.account
        if self.token:
            line["token"] = self.token
        return line

    def entry(self):
        """Where a join starts: a random node."""
        return self.run.random_address(self.rng)

    async def connect(self, address):
        return await Wire.open(self.record, self.name, address, self.on_message, self.source)

    async def send_join(self, wire, line):
        return await wire.request(line, answers=("joined", "redirect", "error"))

    async def take_seat(self):
        """Joins (or resumes) through any node until seated: True, or False with a finding."""
        deadline = time.monotonic() + RETURN_S
        address, hops, take_over, self.ticket = self.entry(), 0, False, None
        while time.monotonic() < deadline and not self.run.stopping:
            if self.wire is not None:
                self.wire.close()
                self.wire = None
            try:
                wire = await self.connect(address)
            except (OSError, ConnectionError, asyncio.TimeoutError):
                self.record.count("connections refused (node down)")
                await asyncio.sleep(0.5)
                address, hops, self.ticket = self.entry(), 0, None
                continue
            line = self.join_line()
            if take_over:
                line["takeOver"] = True
            if self.ticket:
                line["ticket"] = self.ticket
            # The snapshot follows `joined` at once: claimed now, before the reader can pass it on.
            snapshot_entry = wire.expect(lambda m: m.get("type") == "snapshot")
            reply = await self.send_join(wire, line)
            self.ticket = None  # used once, whatever the answer
            if reply is None:
                wire.close()
                await asyncio.sleep(0.5)
                address, hops = self.entry(), 0
                continue
            kind = reply["type"]
            if kind == "joined":
                self.wire, self.token, self.seat = wire, reply.get("token", self.token), reply.get("seat")
                self.note(f"joined at {wire.label}: {reply}")
                snapshot = await wire.wait(snapshot_entry, REPLY_S)
                if snapshot is None:
                    if not wire.closed:
                        self.record.find("unanswered", f"{self.name}: joined {self.match} but no snapshot followed")
                    continue
                if snapshot.get("game"):
                    # Where the dealt game was played: an undealt duel a killed node forgot may
                    # be placed anew elsewhere.
                    self.record.seated_at.setdefault(self.match, set()).add(wire.label.split("@", 1)[1])
                if self.state != "finished":
                    self.state = "seated"
                return True
            if snapshot_entry in wire.pending:
                wire.pending.remove(snapshot_entry)
            wire.close()
            code = reply.get("code")
            self.note(f"at {wire.label}: {reply}")
            if kind == "redirect":
                hops += 1
                if hops > 3:
                    self.record.find("redirect", f"{self.name}: a redirect loop for {self.match}: {reply}")
                    hops, address = 0, self.entry()
                    continue
                address, self.ticket = reply["address"], reply.get("ticket")
            elif code == "node_away":
                self.record.count("node_away answers")
                await asyncio.sleep(min(max(reply.get("retryAfterMs", 1000), 1000), 10000) / 1000)
            elif code == "seat_in_use":
                take_over = True
            elif code in ("rate_limited", "account_limit"):
                self.record.count(f"{code} answers")
                await asyncio.sleep(min(max(reply.get("retryAfterMs", 500), 500), 10000) / 1000)
            elif code == "journal_failed":
                # A join that needs the accounts store while it is unreachable: "try later".
                self.record.count("journal_failed answers to a join")
                await asyncio.sleep(1)
            elif code == "bad_token" and self.private:
                self.record.find("seat", f"{self.name}: bad_token for the challenge duel {self.match} at {wire.label}")
                self.state = "lost"
                return False
            elif code == "bad_token" and self.view.get("state", "waiting") == "waiting" and not self.view.get("game"):
                # A duel not yet dealt keeps no journal (Protocol.md, "Dropping out"): its node's
                # crash forgets it, and its name is free again. Its player joins it anew.
                self.record.count("undealt seats forgotten by a killed node (joined anew)")
                self.token = None
            elif code == "bad_token":
                self.record.find("seat", f"{self.name}: bad_token for {self.match} (dealt, game {self.view.get('game')}) "
                                         f"at {wire.label}; token kept, another node tried")
                await asyncio.sleep(1)
                address, hops = self.entry(), 0
            else:
                self.record.find("seat", f"{self.name}: join {self.match} at {wire.label} refused: {reply}")
                self.state = "lost"
                return False
        if not self.run.stopping:
            self.record.find("seat", f"{self.name}: not back in {self.match} within {RETURN_S:.0f} s")
        self.state = "lost"
        return False

    # -- what the server tells
    def on_snapshot(self, snapshot):
        self.note(f"snapshot seq {snapshot.get('seq')} state {snapshot.get('state')} game {snapshot.get('game')}")
        self.view = snapshot
        if snapshot.get("state") == "over" and snapshot.get("result"):
            self.finish(snapshot.get("game"), snapshot["result"], None)

    def on_message(self, message):
        kind = message.get("type")
        if kind == "snapshot":
            self.on_snapshot(message)
        elif kind == "event":
            view, event = self.view, message.get("kind")
            if event not in ("selection", "spectators"):
                self.note(f"event {message['seq']} {event}" + (f" game {message.get('game')}" if event == "game_started" else ""))
            view["seq"] = message["seq"]
            if event == "game_started":
                view.update(table=message["table"], deck=message["deck"], state="playing", game=message["game"], window=None)
            elif event == "table":
                view.update(table=message["table"], deck=message["deck"])
            elif event == "window_opened":
                view["window"] = message["window"]
            elif event == "window_closed":
                view["window"] = None
            elif event == "set_taken":
                self.sets += 1
            elif event == "resumed":
                view["window"] = message.get("window")
            elif event == "game_over":
                view["state"] = "over"
                self.finish(view.get("game"), message["result"], message.get("ratings"))
        elif kind == "error" and message.get("fatal"):
            self.note(f"fatal {message}")
            self.record.count(f"fatal {message.get('code')}")

    def finish(self, game, result, ratings):
        if self.state != "finished":
            self.state = "finished"
            self.record.ends.append({"match": self.match, "game": game, "player": self.name, "reason": result.get("reason"),
                                     "ratings": ratings is not None, "accounts": self.has_account})

    # -- playing
    async def act(self, action):
        reply = await self.wire.request(action)
        if reply is None or reply["type"] == "error":
            self.note(f"{action['type']}: {reply and reply.get('code')}")
        if reply is not None and reply["type"] == "ack":
            self.record.acks.append({"match": self.match, "seq": reply["seq"], "action": action["type"], "seat": self.seat,
                                     "card": action.get("card"), "player": self.name, "at": self.wire.label})
        return reply

    async def play(self):
        if not await self.take_seat():
            return
        while self.state != "finished":
            if self.wire is None or self.wire.closed:
                self.state = "away"
                if not await self.take_seat():
                    return
                continue
            await asyncio.sleep(self.rng.uniform(2.0, 6.0))
            view = self.view
            if self.run.wrapping and view.get("state") == "waiting" and time.monotonic() > self.run.wrapped_at + 60:
                self.record.find("unended", f"{self.name}: still waiting in {self.match} for an opponent 60 s after the chaos")
                self.state = "abandoned"
                return
            if self.wire.closed or view.get("state") != "playing" or self.state == "finished":
                continue
            if self.run.wrapping or (self.resign_after is not None and self.sets >= self.resign_after):
                if self.resign_after is not None or self.run.wrapping and self.seat == 0:
                    await self.act({"type": "resign"})
                    continue
            window = view.get("window")
            if window and window.get("holder") != self.seat:
                continue
            cards = find_set(view.get("table") or [])
            if not cards:
                if view.get("deck"):
                    await self.act({"type": "deal"})
                continue
            reply = await self.act({"type": "claim"})
            if reply is None or reply["type"] != "ack":
                continue
            for card in cards:
                await asyncio.sleep(self.rng.uniform(0.2, 0.6))
                if self.wire.closed:
                    break
                reply = await self.act({"type": "select", "card": card})
                if reply is None or reply["type"] != "ack":
                    if reply is not None:
                        await self.act({"type": "pass"})
                    break


class DoorPlayer(Player):
    """A key's player through node a's door socket (no sshd: the door line is what `setgame door`
    sends). A match on another node is reached with the handoff ticket the redirect carries."""

    def __init__(self, run, fingerprint, *args, **kwargs):
        super().__init__(run, *args, **kwargs)
        self.fingerprint, self.has_account = fingerprint, True  # the key is its account

    def entry(self):
        """Through the door every time: the door's node hands the player on, with a ticket."""
        return self.run.door_address

    async def connect(self, address):
        if self.ticket is None:
            address = self.run.door_address  # TCP without a ticket cannot seat a door player
        if address.startswith("unix:"):
            wire = await Wire.open(self.record, self.name, address, self.on_message)
            wire.send({"type": "door", "fingerprint": self.fingerprint, "address": "203.0.113.7"})
            return wire
        return await super().connect(address)


class LobbyClient:
    """A player listed in the lobby through a random node; listed again through another after a drop."""

    def __init__(self, run, name, rng, account, source=None):
        self.run, self.record, self.name, self.rng, self.source = run, run.record, name, rng, source
        self.account, self.entries = account, 0
        self.wire, self.told = None, []

    def on_message(self, message):
        if message.get("type") == "challenge":
            self.told.append(message)

    async def enter(self, deadline_s=RETURN_S):
        deadline = time.monotonic() + deadline_s
        while time.monotonic() < deadline and not self.run.stopping:
            try:
                self.wire = await Wire.open(self.record, self.name, self.run.random_address(self.rng), self.on_message, self.source)
            except (OSError, ConnectionError, asyncio.TimeoutError):
                await asyncio.sleep(0.5)
                continue
            reply = await self.wire.request({"type": "lobby", "name": self.name, "account": self.account}, answers=("lobby", "error"))
            if reply is not None and reply["type"] == "lobby":
                self.entries += 1
                return True
            if reply is not None:
                self.record.find("lobby", f"{self.name}: lobby refused at {self.wire.label}: {reply}")
                return False
        self.record.find("lobby", f"{self.name}: could not enter the lobby within {deadline_s:.0f} s")
        return False

    async def told_of(self, predicate, timeout):
        """The first challenge line `predicate` accepts, told on any of this client's connections
        within `timeout` (re-entering the lobby through another node after a drop), or None."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            found = next((m for m in self.told if predicate(m)), None)
            if found is not None:
                return found
            if self.wire is None or self.wire.closed:
                self.record.count("lobby connections dropped")
                if not await self.enter(max(1.0, deadline - time.monotonic())):
                    return None
            await asyncio.sleep(0.2)
        return None
