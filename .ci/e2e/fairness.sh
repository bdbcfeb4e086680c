#!/usr/bin/env bash
# Claim races across distances (`setgame bench --fairness`): a near racer and one behind a relay
# delaying each way by 80 ms (steady, then ±20 ms) race on the real server for claim windows,
# thinking alike. Compensation off, the near one must win most; on, neither may take most. A fifth
# race pits an honest near racer against a near one answering the server's pings 300 ms late (so
# credited the whole cap): the cheat may not take most either.
# At 100 races one standard deviation is 5 points and a loaded 2-core box adds scheduling noise to
# every delay, so the check is looser than the README's 200-race figures (40-60 %): each side at
# least 30 % with compensation, the near side at least 75 % without (it wins about 92 %).
set -euo pipefail
bin="${SETGAME:?path to the setgame binary}"
. "$(dirname "$0")/../lib.sh"
out=$(mktemp -d)
server=
trap 'rm -rf "$out"' EXIT

races=${FAIRNESS_RACES:-100}
TMPDIR="$out/" "$bin" bench --fairness --races "$races" --delay-ms 80 --jitter-ms 20 --feign-lag-ms 300 >"$out/shares" 2>"$out/bench.err" \
    || fail "bench --fairness failed: $(cat "$out/bench.err")"
cat "$out/shares"
[ "$(wc -l <"$out/shares")" -eq 5 ] || fail "expected five settings, got: $(cat "$out/shares")"
while IFS= read -r line; do
    near=$(sed -E 's/.*near +([0-9.]+) %.*/\1/' <<<"$line")
    count=$(sed -E 's/.* of ([0-9]+) races/\1/' <<<"$line")
    [ "$count" -ge "$races" ] || fail "only $count races counted: $line"
    case "$line" in
        *"compensation off"*) awk -v n="$near" 'BEGIN { exit !(n >= 75) }' || fail "without compensation the near side should win most: $line" ;;
        *) awk -v n="$near" 'BEGIN { exit !(n >= 30 && n <= 70) }' || fail "with compensation neither side may win most: $line" ;;
    esac
done <"$out/shares"

# A close race on `setgame serve`'s defaults, then `setgame replay` explains it: bob answers the
# server's echo pings 250 ms late (so he is credited the whole 200 ms cap), ann at once; ann claims
# and bob claims right behind her, so bob's claim counts as sent earlier and takes the window.
"$bin" serve --port 0 --seed 42 --data "$out/data" >"$out/serve.out" 2>"$out/serve.err" &
server=$!
trap 'kill $server 2>/dev/null || true; rm -rf "$out"' EXIT
for _ in $(seq 300); do grep -q 'serving on' "$out/serve.out" 2>/dev/null && break; sleep 0.1; done
port=$(sed -n 's/.*serving on 127.0.0.1:\([0-9]*\).*/\1/p' "$out/serve.out")
[ -n "$port" ] || fail "serve did not start: $(cat "$out/serve.err")"
python3 - "$port" <<'PY' || fail "the close race did not go to bob"
import json, socket, sys, time
port = int(sys.argv[1])
def connect(name, pong_delay):
    s = socket.create_connection(("127.0.0.1", port), timeout=10)
    s.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    f = s.makefile("rb")
    s.sendall(json.dumps({"type": "join", "name": name, "match": "close"}).encode() + b"\n")
    return {"sock": s, "file": f, "delay": pong_delay}
def until(c, pred):
    while True:
        m = json.loads(c["file"].readline())
        if m["type"] == "ping" and m.get("echo"):
            time.sleep(c["delay"])
            c["sock"].sendall(json.dumps({"type": "pong", "time": m["time"]}).encode() + b"\n")
            m["answered"] = True
        if pred(m): return m
ann = connect("ann", 0); until(ann, lambda m: m.get("answered"))
bob = connect("bob", 0.25); until(bob, lambda m: m.get("answered"))
until(ann, lambda m: m.get("kind") == "game_started")
ann["sock"].sendall(b'{"type":"claim","id":"a"}\n')
bob["sock"].sendall(b'{"type":"claim","id":"b"}\n')
opened = until(ann, lambda m: m.get("kind") == "window_opened")
lost = until(ann, lambda m: m["type"] == "error")
sys.exit(0 if opened["window"]["holder"] == 1 and lost["code"] == "claim_taken" else 1)
PY
kill -TERM "$server"; wait "$server" || true
"$bin" replay "$out/data/close.jsonl" >"$out/replay" || fail "replay failed: $(cat "$out/replay")"
grep -q 'claim race (cap 200 ms): bob wins.*ann arrived.*ms later' "$out/replay" \
    || fail "replay does not explain the race: $(cat "$out/replay")"
grep 'claim race' "$out/replay"
echo "fairness: compensation splits the races, without it the near side wins; replay explains a close one"
