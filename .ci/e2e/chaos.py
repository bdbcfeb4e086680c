"""A chaos run (issue 42) over the real binary: three nodes on one throwaway PostgreSQL, duels at
human pace, lobby challenges and a door player, while a random node is killed -9 and restarted
every ~15 s, PostgreSQL is restarted once and stopped (SIGSTOP) for 5 s once. Then every player
finishes its duel (a challenge the lobby's node took with it when killed is made again, as
Protocol.md lets a client know it ended), the nodes stop, and the checks read the clients' logs, the journals of the
three data folders and the store. Settings (environment): CHAOS_SEED (replays a run's schedule),
CHAOS_SECONDS (120), CHAOS_DUELS (200), CHAOS_CHALLENGES (12), CHAOS_KILL_EVERY (15)."""
import asyncio, atexit, os, random, shutil, signal, socket, subprocess, sys, tempfile, time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from e2e_support import BIN, STARTED  # noqa: E402
from chaos_wire import RETURN_S, Record, Wire  # noqa: E402
from chaos_players import DoorPlayer, LobbyClient, Player  # noqa: E402

CI = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
SEED = int(os.environ.get("CHAOS_SEED") or random.SystemRandom().randrange(1 << 32))
SECONDS = float(os.environ.get("CHAOS_SECONDS", "120"))
DUELS = int(os.environ.get("CHAOS_DUELS", "200"))
CHALLENGES = int(os.environ.get("CHAOS_CHALLENGES", "12"))
KILL_EVERY = float(os.environ.get("CHAOS_KILL_EVERY", "15"))
SETTLE_S = 150  # after the chaos: every duel ends within this
HOSTS = {"a": "127.0.0.1", "b": "127.0.0.2", "c": "127.0.0.3"}
print(f"chaos: seed {SEED} (CHAOS_SEED={SEED} replays it), {SECONDS:.0f} s, {DUELS} duels, {CHALLENGES} challenges", flush=True)

work = tempfile.mkdtemp(prefix="setgame-chaos-")
pg_url, pg_dir = subprocess.run([os.path.join(CI, "postgres.sh"), "start"], check=True, capture_output=True,
                                text=True).stdout.split()
stopped_pids = []


def cleanup():
    # A PostgreSQL left stopped by SIGSTOP would never stop: wake it first.
    for pid in stopped_pids:
        try:
            os.kill(pid, signal.SIGCONT)
        except OSError:
            pass
    for proc in STARTED:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    subprocess.run([os.path.join(CI, "postgres.sh"), "stop", pg_dir])


atexit.register(cleanup)
signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
signal.signal(signal.SIGHUP, lambda *_: sys.exit(129))


def free_port(host):
    with socket.socket() as probe:
        probe.bind((host, 0))
        return probe.getsockname()[1]


def psql(sql):
    return subprocess.run(["psql", pg_url, "-Atc", sql], capture_output=True, text=True, check=True).stdout


class Node:
    """`setgame serve --node NAME` on its own address, data folder and log; a has the door socket."""

    def __init__(self, name):
        self.name, self.host = name, HOSTS[name]
        self.port, self.proc, self.up, self.kills = free_port(self.host), None, False, 0
        self.data, self.log = os.path.join(work, name), os.path.join(work, name + ".log")
        self.door = os.path.join(work, "door.sock") if name == "a" else None

    @property
    def address(self):
        return f"{self.host}:{self.port}"

    def start(self):
        """Starts it and waits for its "serving on" line (after a kill, it first waits out its old
        lease). A start the store refuses (PostgreSQL restarting or stopped) is tried again a second
        later, as a supervisor (systemd's Restart=, Kubernetes) would: returns the refusals."""
        extra = ["--door-socket", self.door] if self.door else []
        refusals = []
        for _ in range(30):
            self.proc = subprocess.Popen(
                [BIN, "serve", "--host", self.host, "--port", str(self.port), "--data", self.data, "--store", pg_url,
                 "--node", self.name, "--advertise", self.address, "--connections-per-address", "8192",
                 "--connect-rate-per-address", "1000", "--matches-per-address", "4096", "--waiting-per-address", "4096",
                 "--placements-per-address", "4096"] + extra,
                stdout=subprocess.PIPE, stderr=open(self.log, "a"), text=True)
            STARTED.append(self.proc)
            line = self.proc.stdout.readline()
            if "serving on" in line:
                self.up = True
                return refusals
            self.proc.wait()
            with open(self.log, errors="replace") as f:
                refusals.append(f.read().rstrip().rsplit("\n", 1)[-1])
            time.sleep(1)
        raise RuntimeError(f"node {self.name} did not start in 30 tries: {refusals[-1]} (log: {self.log})")

    def kill(self):
        self.up = False
        self.kills += 1
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait()

    def stop(self):
        self.up = False
        self.proc.send_signal(signal.SIGTERM)
        return self.proc.wait(timeout=30)


class Run:
    """The run's shared state: nodes, the record, and whether the chaos is over."""

    def __init__(self):
        self.record, self.rng = Record(), random.Random(SEED)
        self.nodes = {name: Node(name) for name in HOSTS}
        self.stopping = self.wrapping = False
        self.door_address = "unix:" + self.nodes["a"].door
        self.players, self.challenges, self.log = [], [], []

    def random_address(self, rng):
        return rng.choice(list(self.nodes.values())).address

    def say(self, text):
        line = f"[{time.monotonic() - self.record.t0:6.1f}s] {text}"
        self.log.append(line)
        print("chaos:", line, flush=True)


def pg_pids():
    with open(os.path.join(pg_dir, "data", "postmaster.pid")) as f:
        main = int(f.readline())
    children = subprocess.run(["pgrep", "-P", str(main)], capture_output=True, text=True).stdout.split()
    return [main] + [int(p) for p in children]


async def chaos(run):
    """Every ~KILL_EVERY s a random node that is serving is killed -9 and started again; PostgreSQL
    is restarted at 40% of the run and stopped for 5 s at 70%."""
    t0, rng = time.monotonic(), random.Random(SEED ^ 0xC4A05)
    events = [(KILL_EVERY * k + rng.uniform(-3, 3), "kill") for k in range(1, int(SECONDS // KILL_EVERY) + 1)]
    events += [(SECONDS * 0.4, "pg-restart"), (SECONDS * 0.7, "pg-stop")]
    restarts = []
    for at, what in sorted(events):
        if at >= SECONDS:
            continue
        await asyncio.sleep(max(0.0, t0 + at - time.monotonic()))
        if what == "kill":
            serving = [n for n in run.nodes.values() if n.up]
            if not serving:
                continue
            node = rng.choice(serving)
            node.kill()
            run.say(f"node {node.name} killed -9")

            async def restart(node=node):
                began = time.monotonic()
                refusals = await asyncio.to_thread(node.start)
                for refusal in refusals:
                    run.record.count("node starts refused (tried again)")
                    run.say(f"node {node.name}'s start refused, tried again: {refusal}")
                run.say(f"node {node.name} serving again after {time.monotonic() - began:.1f} s")
            restarts.append(asyncio.ensure_future(restart()))
        elif what == "pg-restart":
            began = time.monotonic()
            await asyncio.to_thread(subprocess.run, [os.path.join(CI, "postgres.sh"), "restart", pg_dir], check=True)
            run.say(f"PostgreSQL restarted ({time.monotonic() - began:.1f} s)")
        else:
            pids = pg_pids()
            for pid in pids:
                os.kill(pid, signal.SIGSTOP)
            stopped_pids.extend(pids)
            run.say(f"PostgreSQL stopped (SIGSTOP of {len(pids)} processes)")
            await asyncio.sleep(5)
            for pid in pids:
                os.kill(pid, signal.SIGCONT)
            stopped_pids.clear()
            run.say("PostgreSQL continued (SIGCONT)")
    await asyncio.sleep(max(0.0, t0 + SECONDS - time.monotonic()))
    await asyncio.gather(*restarts)


def account_key(rng):
    return f"{rng.getrandbits(256):064x}"


def source_for(index):
    # Each player its own address in its own /24: the new-account ration is 20 per address, 40 per /24.
    return f"127.{20 + index // 250}.{index % 250}.9"


async def duel(run, index, delay):
    await asyncio.sleep(delay)
    rng = random.Random(SEED * 1000003 + index)
    resigner = rng.randrange(2)
    players = [Player(run, f"p{index}{side}", f"duel{index}", random.Random(rng.random()), account=account_key(rng),
                      source=source_for(2 * index + seat), resign_after=rng.randint(2, 6) if seat == resigner else None)
               for seat, side in enumerate("ab")]
    run.players.extend(players)
    await asyncio.gather(*(p.play() for p in players))


async def door_duels(run):
    """Door duels one after another until the wrap-up: a key through node a's door socket against
    a TCP account, in a match named door1, door2, …, wherever hashing places it."""
    rng, n = random.Random(SEED ^ 0xD002), 0
    fingerprint = "SHA256:" + "".join(rng.choice("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/")
                                      for _ in range(42)) + "Q"
    name = "key-" + "".join(c for c in fingerprint[7:] if c.isalnum())[:6]
    while not run.wrapping:
        n += 1
        door = DoorPlayer(run, fingerprint, name, f"door{n}", random.Random(rng.random()), resign_after=rng.randint(2, 5))
        other = Player(run, f"doorfoe{n}", f"door{n}", random.Random(rng.random()), account=account_key(rng),
                       source=f"127.19.{n % 250}.9")
        run.players.extend([door, other])
        await asyncio.gather(door.play(), other.play())
        run.say(f"door duel door{n} over: {door.state}/{other.state}")


async def challenge(run, index, delay):
    """ch{i}a and ch{i}b come into the lobby through random nodes; a challenges b; b accepts (then
    both play the private duel) or lets it expire (then both are told)."""
    await asyncio.sleep(delay)
    rng = random.Random(SEED * 7919 + index)
    a, b = (LobbyClient(run, f"ch{index}{s}", random.Random(rng.random()), account_key(rng), source=f"127.18.{2 * index + k}.9")
            for k, s in enumerate("ab"))
    accept = rng.random() < 0.7
    entry = {"index": index, "from": a.name, "to": b.name, "outcome": "not made"}
    run.challenges.append(entry)
    try:
        await challenge_between(run, a, b, accept, entry, rng)
    finally:
        for side in (a, b):
            if side.wire:
                side.wire.close()


LOBBY_LOST = "lobby lost"
# A challenge is made again after each kill of the lobby's node that took it, for as long as the
# kills go on (a lobby restart ends every open challenge: Protocol.md, "Across nodes"); once they
# are over, a challenge lost again more than this many times is a finding, since no kill explains it.
CALM_TRIES = 2


async def challenge_between(run, a, b, accept, entry, rng):
    """Makes the challenge, and again whenever the lobby's node was killed while it was open: a
    lobby restart ends every open challenge, and a client whose lobby connection closed knows its
    open challenges ended (Protocol.md, "Across nodes")."""
    attempt, calm = 0, 0
    while True:
        for side in (a, b):
            if side.dropped() and not await side.enter():
                entry["outcome"] = "not made (lobby not entered)"
                return
        outcome = await one_challenge(run, a, b, accept, entry, rng, attempt)
        if outcome != LOBBY_LOST:
            return
        attempt += 1
        run.record.count("challenges ended by a kill of the lobby's node (made again)")
        if run.wrapping:
            calm += 1
            if calm > CALM_TRIES:
                break
    entry["outcome"] = f"ended with the lobby {attempt} times, {calm} of them after the kills were over"
    run.record.find("challenge", f"{a.name}→{b.name}: {entry['outcome']}")


async def one_challenge(run, a, b, accept, entry, rng, attempt):
    """One challenge from a to b on the lobby both are listed in: played, told expired to both, or
    LOBBY_LOST when a lobby connection closed under it before either."""
    record = run.record
    lost = lambda: a.dropped() or b.dropped()  # noqa: E731
    seen_a, seen_b = len(a.told), len(b.told)
    if attempt:
        # The challenge the lobby's restart ended is gone for good: nobody can accept it now.
        reply = await b.wire.request({"type": "accept", "from": a.name}, answers=("challenge", "error"))
        if reply is None:
            return LOBBY_LOST
        if reply.get("code") != "no_such_challenge":
            record.find("challenge", f"{b.name} accepted {a.name}'s challenge after the lobby's node restarted: {reply}")
    reply = await a.wire.request({"type": "challenge", "name": b.name}, answers=("challenge", "error"))
    if reply is None or (reply["type"] == "error" and lost()):
        return LOBBY_LOST
    if reply["type"] == "error" or reply.get("state") != "open":
        entry["outcome"] = f"refused: {reply}"
        record.find("challenge", f"{a.name} at {a.wire.label} challenged {b.name}, listed at {b.wire.label}: {reply}")
        return entry["outcome"]
    entry["outcome"] = "open"
    opened = await b.told_of(lambda m: m.get("state") == "open" and m.get("from") == a.name, 20, seen_b)
    if opened is None:
        if lost():
            return LOBBY_LOST
        record.find("challenge", f"{b.name} ({b.wire.label}) was never told of {a.name}'s challenge")
    if accept and opened is not None:
        reply = await b.wire.request({"type": "accept", "from": a.name}, answers=("challenge", "error"))
        if reply is None:
            return LOBBY_LOST
        if reply["type"] == "challenge" and reply.get("state") == "accepted":
            told_a = await a.told_of(lambda m: m.get("state") == "accepted" and m.get("to") == b.name, 20, seen_a)
            if told_a is None:
                if a.dropped():
                    # Killed before the challenger heard: it holds no token, its challenge ended with the lobby.
                    return LOBBY_LOST
                record.find("challenge", f"{a.name} was never told {b.name} accepted (match {reply.get('match')})")
                return "accept untold"
            match = reply["match"]
            players = [Player(run, a.name, match, random.Random(rng.random()), account=a.account, token=told_a["token"],
                              source=a.source, resign_after=2, private=True),
                       Player(run, b.name, match, random.Random(rng.random()), account=b.account, token=reply["token"],
                              source=b.source, private=True)]
            run.players.extend(players)
            a.wire.close(), b.wire.close()
            await asyncio.gather(*(p.play() for p in players))
            entry["outcome"] = "played" if all(p.state == "finished" for p in players) else f"not played: {[p.state for p in players]}"
            if entry["outcome"] != "played":
                record.find("challenge", f"{a.name}–{b.name} in {match}: {entry['outcome']}")
            return entry["outcome"]
        if not (reply["type"] == "challenge" and reply.get("state") == "expired"):
            if lost():
                return LOBBY_LOST
            record.find("challenge", f"{b.name} accepting {a.name}'s challenge at {b.wire.label}: {reply}")
            return "accept refused"
        # The store could not take the duel's row: the challenge ended, told expired to both sides.
        record.count("accepts answered expired (the duel's row not written)")
    # Not accepted (or its duel not made): both sides are told it expired, on their listed connections.
    told = [await side.told_of(lambda m: m.get("state") == "expired" and m.get("from") == a.name, 90, seen)
            for side, seen in ((a, seen_a), (b, seen_b))]
    if all(told):
        entry["outcome"] = "expired, both told"
    elif lost():
        return LOBBY_LOST
    else:
        entry["outcome"] = f"neither played nor told expired ({a.name} told: {told[0] is not None}, {b.name}: {told[1] is not None})"
        record.find("challenge", f"{a.name}→{b.name}: {entry['outcome']}")
    return entry["outcome"]


async def prober(run):
    """Until the wrap-up, a `profile` and a `health` asked of a random node each second (issue 42:
    with PostgreSQL stopped they got no answer at all): each is answered within REPLY_S."""
    rng = random.Random(SEED ^ 0x9E0BE)
    while not run.wrapping:
        address = run.random_address(rng)
        try:
            wire = await Wire.open(run.record, "prober", address, lambda m: None, source="127.17.0.9")
        except (OSError, ConnectionError, asyncio.TimeoutError):
            await asyncio.sleep(1)
            continue
        for request in ({"type": "profile", "name": f"p{rng.randrange(max(DUELS, 1))}a"}, {"type": "health"}):
            reply = await wire.request(request, answers=("profile", "health", "error"))
            if reply is not None:
                run.record.count(f"{request['type']} answered ({reply.get('code') or reply['type']})")
        wire.close()
        await asyncio.sleep(1)


async def main(run):
    began = time.monotonic()
    await asyncio.gather(*(asyncio.to_thread(n.start) for n in run.nodes.values()))
    run.say("three nodes serving: " + ", ".join(f"{n.name} {n.address}" for n in run.nodes.values()))
    spread = SECONDS * 0.6
    tasks = [asyncio.ensure_future(duel(run, i, spread * i / max(DUELS, 1))) for i in range(DUELS)]
    # Challenges left to expire need their 60 s (and the telling) inside the run's settling time.
    tasks += [asyncio.ensure_future(challenge(run, i, min(SECONDS * 0.5, 60) * i / max(CHALLENGES, 1))) for i in range(CHALLENGES)]
    tasks.append(asyncio.ensure_future(door_duels(run)))
    tasks.append(asyncio.ensure_future(prober(run)))
    await chaos(run)
    run.wrapping, run.wrapped_at = True, time.monotonic()
    run.say(f"chaos over after {time.monotonic() - began:.0f} s: every duel left is ended (its resigner resigns), within {SETTLE_S} s")
    done, pending = await asyncio.wait(tasks, timeout=SETTLE_S + RETURN_S)
    run.stopping = True
    for task in pending:
        task.cancel()
    for task in done:
        if task.exception() is not None:
            run.record.find("harness", f"a client task failed: {task.exception()!r}")
    if pending:
        run.record.find("seat", f"{len(pending)} client tasks (duels, challenges, door) still running {SETTLE_S + RETURN_S} s after the chaos")
    for player in run.players:
        if player.wire:
            player.wire.close()
    run.say(f"clients done after {time.monotonic() - began:.0f} s")


run = Run()
began = time.monotonic()
try:
    asyncio.run(main(run))
finally:
    for node in run.nodes.values():
        if node.proc is not None and node.proc.poll() is None:
            if node.stop() != 0:
                run.record.find("harness", f"node {node.name} did not exit 0 on SIGTERM")
import chaos_checks  # noqa: E402
failures = chaos_checks.check(run, work, pg_url, psql)
print(f"chaos: seed {SEED}, {time.monotonic() - began:.0f} s in all; logs and data in {work}", flush=True)
if failures:
    print(f"FAIL: chaos (CHAOS_SEED={SEED}): {failures} finding(s) above", file=sys.stderr)
    sys.exit(1)
print("chaos: every check passed")
shutil.rmtree(work, ignore_errors=True)
