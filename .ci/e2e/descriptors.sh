#!/usr/bin/env bash
# Issue 11 #5: under the common 1,024-descriptor limit (hard as well as soft, so it cannot be
# raised) 1,100 idle sockets do not turn the server into a busy loop: it says in its log how many
# connections fit, refuses the rest with server_full, logs the refusals at most once a second, stays
# nearly idle, and a player still gets an answer. Then the limit is cut under the running server
# (prlimit) so accept itself fails with EMFILE: it must pause, not spin, and a newcomer at either
# entrance, TCP or the door's socket, is told the server is full by the one accept loop (issue 33).
set -euo pipefail
bin="${SETGAME:?path to the setgame binary}"
. "$(dirname "$0")/../lib.sh"
out=$(mktemp -d)
(ulimit -n 1024 && exec "$bin" serve --port 0 --data "$out/data" --door-socket "$out/door.sock" >"$out/stdout" 2>"$out/stderr") &
server=$!
trap 'kill $server 2>/dev/null || true; rm -rf "$out"' EXIT
for _ in $(seq 300); do grep -q 'serving on' "$out/stdout" 2>/dev/null && break; sleep 0.1; done
port=$(sed -n 's/.*serving on 127.0.0.1:\([0-9]*\).*/\1/p' "$out/stdout")
[ -n "$port" ] || fail "serve did not say where it listens"
grep -q 'only 1024 file descriptors may be open' "$out/stderr" || fail "the log does not say the limits were fitted: $(cat "$out/stderr")"

python3 - "$port" "$server" "$out/stderr" "$out/door.sock" <<'PY'
import json, os, socket, subprocess, sys, time
port, pid, log, door = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3], sys.argv[4]
ticks = os.sysconf("SC_CLK_TCK")
def cpu():
    fields = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / ticks
def lines():
    return sum(1 for _ in open(log))
def hold(count, first_address):
    held = []
    for n in range(count):
        s = socket.socket()
        s.bind((f"127.0.{first_address + n // 30}.{1 + n % 30}", 0))  # 30 a address: under the share
        s.settimeout(5)
        try: s.connect(("127.0.0.1", port))
        except OSError: s.close(); continue
        held.append(s)
    return held
def player_answers():
    s = socket.create_connection(("127.0.0.1", port), timeout=5)
    f = s.makefile("rb")
    first = json.loads(f.readline())
    s.close()
    return first["type"] == "welcome" or first.get("code") == "server_full"
def door_answers():
    # The door's socket: its newcomer is welcomed, or told the server is full, never left waiting.
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    s.settimeout(5)
    s.connect(door)
    f = s.makefile("rb")
    try:
        lines = [json.loads(f.readline()) for _ in range(2)]
    except (socket.timeout, ValueError):
        return False
    finally:
        s.close()
    return lines[0]["type"] == "welcome" and lines[1].get("code") == "server_full"
def quiet(seconds):
    c0, l0 = cpu(), lines()
    time.sleep(seconds)
    return (cpu() - c0) / seconds, (lines() - l0) / seconds

idle = hold(1100, 10)
share, logging = quiet(2)
print(f"1,100 idle sockets under 1,024 descriptors: server CPU {share:.0%}, {logging:.1f} log lines/s")
assert share < 0.2, f"server busy at {share:.0%} of a core"
assert logging <= 3, f"{logging} log lines a second"
assert player_answers(), "a newcomer got no answer"

# Now make accept itself fail: the limit drops under the descriptors the server holds.
for s in idle: s.close()
deadline = time.time() + 30  # until the server has closed its ends too: only a hang waits this long
while len(os.listdir(f"/proc/{pid}/fd")) > 100 and time.time() < deadline: time.sleep(0.05)
assert len(os.listdir(f"/proc/{pid}/fd")) <= 100, "the server kept the closed connections"
subprocess.run(["prlimit", f"--pid={pid}", "--nofile=200:200"], check=True)
idle = hold(400, 60)
share, logging = quiet(2)
print(f"accept failing with EMFILE: server CPU {share:.0%}, {logging:.1f} log lines/s")
assert share < 0.2, f"server spins at {share:.0%} of a core"
assert logging <= 4, f"{logging} log lines a second"
assert any("out of file descriptors" in line for line in open(log)), "EMFILE was not logged"
assert player_answers(), "a newcomer got no answer while descriptors ran out"
assert door_answers(), "a door newcomer was not told the server is full while descriptors ran out"
PY
echo "descriptors ok"
