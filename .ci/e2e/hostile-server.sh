#!/usr/bin/env bash
# `setgame join` against a hostile server (issue 16), in tmux: times from the ends of Int64, an
# impossible table, a pong it never asked for and a flood of pings it must not answer one by one;
# the client neither traps nor hangs, keeps its 12 cards on screen, answers the flood once, ends
# on the server's fatal error with status 1, and leaves the terminal as it was.
set -euo pipefail
bin="${SETGAME:?path to the setgame binary}"
. "$(dirname "$0")/../lib.sh"
port=$(free_port)
state=$(mktemp -d)
session=hostile-$$
python3 - "$port" "$state" >"$state/server.log" 2>&1 <<'PY' &
import fcntl, json, os, socket, struct, sys, termios, time
port, state = int(sys.argv[1]), sys.argv[2]
rules = {"claimTimeoutPenalty":10,"claimWindowMs":5000,"dealGraceMs":8000,"dealPenalty":15,"hintCost":15,"hintsInDuel":False,
         "secondChanceMs":10000,"setPointsLostPerSecond":1,"setPointsMax":30,"setPointsMin":10,"wrongSetPenalty":10}
def snapshot(**changes):
    s = {"type":"snapshot","match":"evil","seq":5,"time":1000,"mode":"duel","state":"playing","game":1,
         "players":[{"seat":0,"name":"ann","present":True,"score":0},{"seat":1,"name":"eve","present":True,"score":0}],
         "spectators":0,"table":[9,40,16,30,47,20,0,14,75,45,77,19],"deck":69,"selection":None,"window":None,"shown":None,
         "tableChangedAt":1000,"rules":rules,"commitment":None,"result":None,"seed":None,"rematch":[]}
    s.update(changes)
    return s
def status(text):
    with open(f"{state}/status", "a") as f: f.write(text + "\n")
listener = socket.socket(); listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
listener.bind(("127.0.0.1", port)); listener.listen(1); status("listening")
conn, _ = listener.accept()
conn.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 2048)
def send(message): conn.sendall((json.dumps(message) + "\n").encode())
send({"type":"welcome","protocol":1,"versions":[1],"server":"evil","time":-2**63,"limits":{}})
send({"type":"welcome","protocol":1,"versions":[1],"server":"evil","time":1000,"limits":{}})
reader = conn.makefile("rb")
while b'"join"' not in reader.readline(): pass
send({"type":"joined","role":"player","match":"evil","mode":"duel","seat":0,"token":"00112233445566778899aabbccddeeff","resumed":False})
send(snapshot())
send(snapshot(seq=6, table=[i % 81 for i in range(3000)], deck=0))
send(snapshot(seq=6, window={"kind":"claim","holder":1,"opened":4*10**18,"deadline":4*10**18,"durationMs":0}))
send(snapshot(seq=6, window={"kind":"claim","holder":1,"opened":-2**63,"deadline":2**63-1,"durationMs":0}))
send({"type":"event","kind":"presence","match":"evil","seq":6,"time":1000,"seat":1,"present":False,"forfeitAt":2**63-1})
send({"type":"pong","time":1000,"clientTime":-2**63})
conn.setblocking(False)
flood = b'{"type":"ping","time":2000}\n' * 20000
sent = 0
deadline = time.time() + 30
while sent < len(flood) and time.time() < deadline:
    try: sent += conn.send(flood[sent:])
    except BlockingIOError: time.sleep(0.01)
# The client has read the flood once no byte of it is left in either kernel: not in ours, nor
# unread in the client's (its receive queue, from /proc/net/tcp). Then the deal the script asks
# for is typed; the client handles it after what it read before, so every answer to the flood
# comes before it. No quiet period is trusted to mean that nothing more is coming.
def unsent(): return struct.unpack("i", fcntl.ioctl(conn, termios.TIOCOUTQ, b"\0" * 4))[0]
def client_unread():
    client_port = conn.getpeername()[1]
    with open("/proc/net/tcp") as table:
        for row in list(table)[1:]:
            fields = row.split()
            if int(fields[1].split(":")[1], 16) == client_port and int(fields[2].split(":")[1], 16) == port:
                return int(fields[4].split(":")[1], 16)
    return 0
deadline = time.time() + 30
while sent == len(flood) and (unsent() or client_unread()) and time.time() < deadline: time.sleep(0.01)
status(f"flooded {sent // 28} pings" if sent == len(flood) and not unsent() and not client_unread() else "flood stuck")
conn.setblocking(True); conn.settimeout(30)
lines = []
try:
    for line in reader:
        if b'"deal"' in line: break
        lines.append(line)
    else: lines = None
except socket.timeout: lines = None
pings = sum(1 for line in lines or [] if b'"ping"' in line)
status(f"answered with {pings} pings" if lines is not None else "no deal came")
while not os.path.exists(f"{state}/finish"): time.sleep(0.05)
send({"type":"error","code":"match_full","fatal":True,"message":"Evil says the match is full."})
conn.shutdown(socket.SHUT_WR)
try:
    while reader.read(65536): pass  # until the client, gone, closes its end
except OSError: pass
conn.close()
status("closed")
PY
fake=$!
cleanup() { tmux kill-session -t "$session" 2>/dev/null || true; kill $fake 2>/dev/null || true; }
trap cleanup EXIT
for _ in $(seq 300); do grep -q listening "$state/status" 2>/dev/null && break; sleep 0.1; done
grep -q listening "$state/status" || fail "the fake server did not start"

tmux new-session -d -s "$session" -x 120 -y 40
# The screen shows a typed command line before the command has run: wait for its exit status.
run_in "$session" saved "stty -a > $state/stty.before"
expect_status "$session" saved 0
run_in "$session" join "XDG_STATE_HOME=$state $bin join 127.0.0.1:$port --name ann --match evil"
wait_for_cards "$session" 12
wait_for "$session" "deck 69"
waited=0
until grep -qE "flooded|flood stuck" "$state/status"; do
    sleep 0.2; waited=$((waited + 1)); [ $waited -lt 200 ] || fail "the flood did not finish"
done
grep -q flooded "$state/status" || fail "the client did not read the whole flood"
wait_for "$session" "deck 69"
# A capture can land in the middle of a frame: what must hold is the settled screen, 12 cards.
wait_for_cards "$session" 12 10
tmux send-keys -t "$session" d   # a request after the flood: every answer to it comes first
waited=0
until grep -qE "answered with|no deal came" "$state/status"; do
    sleep 0.2; waited=$((waited + 1)); [ $waited -lt 200 ] || fail "the fake server never saw the deal"
done
answered=$(sed -n 's/answered with \([0-9]*\) pings/\1/p' "$state/status")
[ -n "$answered" ] && [ "$answered" -le 3 ] || fail "the client answered the flood with ${answered:-?} pings"
touch "$state/finish"
expect_status "$session" join 1 20
wait_for "$session" "Evil says the match is full."
run_in "$session" compared "stty -a > $state/stty.after"
expect_status "$session" compared 0
cmp -s "$state/stty.before" "$state/stty.after" || { diff "$state/stty.before" "$state/stty.after"; fail "the terminal settings changed"; }
trap - EXIT
cleanup
rm -rf "$state"
echo "hostile-server: no trap, no hang, a flood of pings answered with $answered, terminal restored"
