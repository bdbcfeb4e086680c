"""The chaos run's clients (.ci/e2e/chaos.py), on chaos_wire's connection: a duel player at human
pace that follows redirects, waits out node_away and comes back to its seat after its node is
killed, the same player through the door socket, and a player in the lobby."""
import asyncio, collections, os, sys, time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from e2e_support import find_set  # noqa: E402
from chaos_wire import REPLY_S, RETURN_S, Wire  # noqa: E402


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
            # `seen`: the table it claims is the one it saw (Protocol.md, "Fair claim races").
            reply = await self.act({"type": "claim", "seen": view.get("seq", 0)})
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
    """A player listed in the lobby: it enters through a random node, follows the `redirect` to the
    lobby's node (at most 3 hops), waits out `node_away` (its `retryAfterMs`, clamped to 30 s), and
    enters again after a drop: a lobby connection that closed under it means the lobby's node was
    killed, and with it every open challenge ended (Protocol.md, "Across nodes")."""

    def __init__(self, run, name, rng, account, source=None):
        self.run, self.record, self.name, self.rng, self.source = run, run.record, name, rng, source
        self.account, self.entries = account, 0
        self.wire, self.told = None, []

    def on_message(self, message):
        if message.get("type") == "challenge":
            self.told.append(message)

    async def enter(self, deadline_s=RETURN_S):
        deadline = time.monotonic() + deadline_s
        address, hops = self.run.random_address(self.rng), 0
        while time.monotonic() < deadline and not self.run.stopping:
            if self.wire is not None:
                self.wire.close()
            try:
                self.wire = await Wire.open(self.record, self.name, address, self.on_message, self.source)
            except (OSError, ConnectionError, asyncio.TimeoutError):
                await asyncio.sleep(0.5)
                address, hops = self.run.random_address(self.rng), 0
                continue
            reply = await self.wire.request({"type": "lobby", "name": self.name, "account": self.account},
                                            answers=("lobby", "redirect", "error"))
            if reply is None:
                await asyncio.sleep(0.5)
                address, hops = self.run.random_address(self.rng), 0
                continue
            if reply["type"] == "lobby":
                self.entries += 1
                return True
            if reply["type"] == "redirect":
                hops += 1
                if reply.get("match") != "~lobby" or hops > 3:
                    self.record.find("redirect", f"{self.name}: lobby redirected {hops} times, last at {self.wire.label}: {reply}")
                    address, hops = self.run.random_address(self.rng), 0
                else:
                    self.record.count("lobby redirects followed")
                    address = reply["address"]
                continue
            code = reply.get("code")
            if code == "node_away":
                self.record.count("node_away answers to a lobby")
                await asyncio.sleep(min(max(reply.get("retryAfterMs", 1000), 1000), 30000) / 1000)
                address, hops = self.run.random_address(self.rng), 0
                continue
            if code == "journal_failed":
                # The accounts store unreachable (PostgreSQL restarting or stopped): "try later".
                self.record.count("journal_failed answers to a lobby")
                await asyncio.sleep(1)
                continue
            self.record.find("lobby", f"{self.name}: lobby refused at {self.wire.label}: {reply}")
            return False
        self.record.find("lobby", f"{self.name}: could not enter the lobby within {deadline_s:.0f} s")
        return False

    def dropped(self):
        """Whether its lobby connection closed under it (the harness closes it only at the end)."""
        return self.wire is None or self.wire.closed

    async def told_of(self, predicate, timeout, since=0):
        """The first challenge line from `since` on that `predicate` accepts, told on this
        client's lobby connection within `timeout`; None when none came, or when the connection
        closed first (the lobby's node killed: what was open there ended with it)."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            found = next((m for m in self.told[since:] if predicate(m)), None)
            if found is not None:
                return found
            if self.dropped():
                return None
            await asyncio.sleep(0.2)
        return None
