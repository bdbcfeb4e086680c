"""What the Python end-to-end scripts share: the real `setgame serve` as a child process, and the
first set on a table (found independently of the Swift rules, from the card ids' base-3 digits)."""
import atexit, os, signal, subprocess, sys

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


def find_set(table):
    digits = lambda c: (c // 27, c // 9 % 3, c // 3 % 3, c % 3)
    for i in range(len(table)):
        for j in range(i + 1, len(table)):
            for k in range(j + 1, len(table)):
                if all((a + b + c) % 3 == 0 for a, b, c in zip(digits(table[i]), digits(table[j]), digits(table[k]))):
                    return [table[i], table[j], table[k]]
    return None
