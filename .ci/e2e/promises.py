"""The journal's promises, checked on the real binary: a match killed with SIGKILL after a rematch
comes back; a second server on the same data folder is refused at once; and, where the machine
lets us mount a small tmpfs, a full disk pauses the match (nothing unwritten is acknowledged) and
it goes on, journal intact, once there is room again."""
import os, shutil, subprocess, sys, tempfile, time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from e2e_support import BIN, STARTED, Player, fail, Server as Serve  # noqa: E402


class Server(Serve):
    """The server of one check; its log lies beside the data folder, which the full-disk check
    fills up."""

    def __init__(self, data):
        super().__init__(data, log=self.log_path(data))

    @staticmethod
    def log_path(data):
        return os.path.join(data, "..", os.path.basename(data) + ".log")

    def log(self):
        return open(self.log_path(self.data)).read()


class Client(Player):
    """The shared player, also keeping every message it read (`seen`)."""

    def __init__(self, port, name, match, token=None):
        self.seen = []
        super().__init__(port, name, match, token)

    def read(self):
        message = super().read()
        self.seen.append(message)
        return message

    def wait_for(self, what, test, seconds=10):
        self.sock.settimeout(seconds)
        message = self.until(test)
        self.sock.settimeout(10)
        return message


def kill_after_rematch(root):
    data = os.path.join(root, "rematch")
    os.mkdir(data)
    server = Server(data)
    ann, bob = Client(server.port, "ann", "rm"), Client(server.port, "bob", "rm")
    if ann.request({"type": "resign"})["type"] != "ack":
        fail("resign refused")
    for client in (ann, bob):
        if client.request({"type": "rematch"})["type"] != "ack":
            fail("rematch refused")
    before = bob.sync()
    if before["game"] != 2:
        fail(f"the rematch did not start game 2: {before['game']}")
    server.kill()
    server = Server(data)
    if os.listdir(os.path.join(data, "damaged")):
        fail("kill -9 after a rematch: the journal was damaged: " + server.log())
    ann, bob = Client(server.port, "ann", "rm", ann.token), Client(server.port, "bob", "rm", bob.token)
    after = bob.sync()
    for key in ("game", "table", "deck", "commitment"):
        if after[key] != before[key]:
            fail(f"after kill -9 the rematch's {key} differs: {before[key]} / {after[key]}")
    server.stop()
    print("promises: kill -9 after a rematch: game 2 restored with both seats")


def two_servers(root):
    data = os.path.join(root, "shared")
    os.mkdir(data)
    first = Server(data)
    started = time.time()
    second = subprocess.run([BIN, "serve", "--port", "0", "--data", data], capture_output=True, text=True, timeout=10)
    if second.returncode == 0 or "in use by another setgame serve" not in second.stderr:
        fail(f"a second server on the same folder: status {second.returncode}, {second.stderr!r}")
    if time.time() - started > 5:
        fail("the second server did not exit at once")
    Client(first.port, "cat", "still")  # the first goes on serving
    first.stop()
    print(f"promises: a second serve on one data folder exits {second.returncode}: {second.stderr.strip()}")


def full_disk(root):
    mount = os.path.join(root, "tiny")
    os.mkdir(mount)
    # As root, or through password-less sudo (as CI's apt-get step uses); owned by us either way.
    sudo = [] if os.geteuid() == 0 else ["sudo", "-n"]
    options = f"size=512k,mode=0700,uid={os.getuid()},gid={os.getgid()}"
    if (sudo and not shutil.which("sudo")) or subprocess.run(
            sudo + ["mount", "-t", "tmpfs", "-o", options, "tmpfs", mount], capture_output=True).returncode != 0:
        print("promises: SKIPPED the full disk: this machine does not let us mount a tmpfs (JournalFailureTests covers it with an injected failing writer)")
        return
    try:
        data = os.path.join(mount, "data")
        os.mkdir(data)
        server = Server(data)
        ann, bob = Client(server.port, "ann", "full"), Client(server.port, "bob", "full")
        filler = os.path.join(mount, "filler")
        fd = os.open(filler, os.O_WRONLY | os.O_CREAT, 0o600)
        try:
            while True:
                os.write(fd, b"\0" * 65536)
        except OSError:
            pass
        for size in (4096, 1):
            try:
                while True:
                    os.write(fd, b"\0" * size)
            except OSError:
                pass
        os.close(fd)
        # The journal's last page still has room: act until a line no longer fits.
        moves, refused = 0, None
        while refused is None and moves < 3000:
            for client, move in ((ann, "claim"), (ann, "pass"), (bob, "pass")):
                reply = client.request({"type": move})
                moves += 1
                if reply["type"] == "error":
                    if reply["code"] != "journal_failed":
                        fail(f"{move} refused: {reply}")
                    refused = move
                    break
        if refused is None:
            fail("the journal never filled the disk")
        last_acked = bob.sync()
        journal = open(os.path.join(data, "full.jsonl"), "rb").read()
        if not journal.endswith(b"\n") or any(not line.startswith(b"{") or not line.endswith(b"}") for line in journal.split(b"\n")[:-1]):
            fail("a write that did not fit left part of a line in the journal")
        replies = [bob.request({"type": "deal"}), ann.request({"type": "resign"})]
        if any(r["type"] != "error" or r["code"] != "journal_failed" for r in replies):
            fail(f"with the disk full, actions were not refused with journal_failed: {replies}")
        if not any(m["type"] == "error" and m["code"] == "journal_failed" and "id" not in m for m in bob.seen):
            fail("the other player was not told that the match is paused")
        if bob.sync()["seq"] != last_acked["seq"]:
            fail("an unjournaled action was broadcast")
        time.sleep(1.5)  # a sweep or two try again, and fail again
        os.remove(filler)
        for client in (ann, bob):
            client.wait_for("resumed", lambda m: m["type"] == "event" and m["kind"] == "resumed", seconds=30)
        window = ann.sync()["window"]
        if window and window["holder"] == 0:
            ann.request({"type": "pass"})
        if bob.sync()["window"]:
            bob.request({"type": "pass"})
        if ann.request({"type": "claim"})["type"] != "ack":
            fail("the match did not go on once the disk had room")
        log = server.log()
        if log.count("journal of full cannot be written") != 1 or log.count("journal of full is written again") != 1 \
                or "server-state.json" in log:
            fail("the log should say once that the journal failed and once that it works again:\n" + log)
        tokens = (ann.token, bob.token)
        server.kill()
        server = Server(data)
        if os.listdir(os.path.join(data, "damaged")):
            fail("the journal of a disk that filled up was damaged:\n" + server.log())
        back = Client(server.port, "ann", "full", tokens[0])
        window = back.view["window"]
        if not window or window["kind"] != "claim" or window["holder"] != 0:
            fail(f"the claim acknowledged after the disk had room was lost: {window}")
        server.stop()
        print(f"promises: a full disk (512 KiB tmpfs) refused move {moves} with journal_failed and paused the match; it went on once there was room; kill -9 lost nothing")
    finally:
        subprocess.run(sudo + ["umount", "-l", mount])


root = tempfile.mkdtemp(prefix="setgame-promises-")
try:
    kill_after_rematch(root)
    two_servers(root)
    full_disk(root)
finally:
    for proc in STARTED:  # a failing run must not leave servers behind
        if proc.poll() is None:
            proc.kill()
shutil.rmtree(root, ignore_errors=True)
