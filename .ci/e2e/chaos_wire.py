"""The chaos run's connection (.ci/e2e/chaos.py): one asyncio connection that keeps its owner's
view from every message in order, answers each request by its id, and counts every request and
answer; and the record of what every client saw, which the checks read."""
import asyncio, json, os, time

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
