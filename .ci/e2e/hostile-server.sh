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
import json, os, socket, sys, time
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
deadline = time.time() + 5
while sent < len(flood) and time.time() < deadline:
    try: sent += conn.send(flood[sent:])
    except BlockingIOError: time.sleep(0.01)
status(f"flooded {sent // 28} pings")
while not os.path.exists(f"{state}/finish"): time.sleep(0.05)
conn.setblocking(True); conn.settimeout(2)
lines = b""
try:
    while True:
        chunk = conn.recv(65536)
        if not chunk: break
        lines += chunk
        if len(lines) > 10**6: break
except socket.timeout: pass
pings = sum(1 for line in lines.split(b"\n") if b'"ping"' in line)
status(f"answered with {pings} pings")
send({"type":"error","code":"match_full","fatal":True,"message":"Evil says the match is full."})
time.sleep(0.5)
conn.close()
status("closed")
PY
fake=$!
cleanup() { tmux kill-session -t "$session" 2>/dev/null || true; kill $fake 2>/dev/null || true; }
trap cleanup EXIT
for _ in $(seq 50); do grep -q listening "$state/status" 2>/dev/null && break; sleep 0.1; done
grep -q listening "$state/status" || fail "the fake server did not start"

tmux new-session -d -s "$session" -x 120 -y 40
tmux send-keys -t "$session" "stty -a > $state/stty.before; echo SAVED" Enter
wait_for "$session" SAVED
tmux send-keys -t "$session" "XDG_STATE_HOME=$state $bin join 127.0.0.1:$port --name ann --match evil; echo EXIT=\$?" Enter
wait_for_cards "$session" 12
wait_for "$session" "deck 69"
for _ in $(seq 100); do grep -q flooded "$state/status" && break; sleep 0.1; done
grep -q flooded "$state/status" || fail "the flood did not finish"
wait_for "$session" "deck 69"
# A capture can land in the middle of a frame: what must hold is the settled screen, 12 cards.
wait_for_cards "$session" 12 10
touch "$state/finish"
wait_for "$session" "EXIT=1" 20
wait_for "$session" "Evil says the match is full."
answered=$(sed -n 's/answered with \([0-9]*\) pings/\1/p' "$state/status")
[ -n "$answered" ] && [ "$answered" -le 3 ] || fail "the client answered the flood with ${answered:-?} pings"
tmux send-keys -t "$session" "stty -a > $state/stty.after; echo COMPARED" Enter
wait_for "$session" COMPARED
cmp -s "$state/stty.before" "$state/stty.after" || { diff "$state/stty.before" "$state/stty.after"; fail "the terminal settings changed"; }
trap - EXIT
cleanup
rm -rf "$state"
echo "hostile-server: no trap, no hang, a flood of pings answered with $answered, terminal restored"
