#!/usr/bin/env bash
# Hand-edited journals (issue 16): every value out of range and every record out of order. The real
# `setgame serve` starts on a folder of them, sets each aside in damaged/ and restores the good one;
# `setgame replay` reports each with its record number and exit status 1, never a trap.
set -euo pipefail
bin="${SETGAME:?path to the setgame binary}"
. "$(dirname "$0")/../lib.sh"
out=$(mktemp -d)
server=
trap '[ -n "$server" ] && kill $server 2>/dev/null || true' EXIT

start_server() {  # start_server DATA LOG [ARGS...]: starts serve, sets $server and $port
    "$bin" serve --port 0 --seed 42 --data "$1" "${@:3}" >"$2.out" 2>"$2.err" &
    server=$!
    for _ in $(seq 300); do grep -q 'serving on' "$2.out" 2>/dev/null && break; sleep 0.1; done
    port=$(sed -n 's/.*serving on 127.0.0.1:\([0-9]*\).*/\1/p' "$2.out")
    [ -n "$port" ] || { cat "$2.err" >&2; fail "serve did not start on $1"; }
}
stop_server() {
    kill -TERM "$server"
    wait "$server" || fail "serve did not exit 0 on SIGTERM"
    server=
}

# A real journal to craft from: ann and bob seated, ann takes a set, bob deals.
start_server "$out/real" "$out/real"
python3 - "$port" <<'PY'
import socket, sys, time
port = int(sys.argv[1])
def connect():
    s = socket.create_connection(("127.0.0.1", port), timeout=10)
    return s, s.makefile("rb")
def until(f, pred):
    import json
    while True:
        m = json.loads(f.readline())
        if pred(m): return m
a, af = connect(); b, bf = connect()
a.sendall(b'{"type":"join","name":"ann","match":"good"}\n'); until(af, lambda m: m["type"] == "snapshot")
b.sendall(b'{"type":"join","name":"bob","match":"good"}\n'); until(bf, lambda m: m["type"] == "snapshot")
a.sendall(b'{"type":"claim"}\n{"type":"select","card":9}\n{"type":"select","card":16}\n{"type":"select","card":14}\n')
until(bf, lambda m: m.get("kind") == "table")
time.sleep(0.05)
b.sendall(b'{"type":"deal"}\n'); until(af, lambda m: m.get("kind") == "window_opened")
PY
stop_server
[ -f "$out/real/good.jsonl" ] || fail "no journal was kept for the match"

# The crafted folder: one journal per case, and a manifest of what replay must say.
mkdir -p "$out/data"
python3 - "$out/real/good.jsonl" "$out/data" >"$out/manifest" <<'PY'
import copy, json, sys
base = [json.loads(line) for line in open(sys.argv[1])]
folder = sys.argv[2]
def setting(key, value):
    def edit(r): r[0]["rules"][key] = value
    return edit
def field(index, key, value):
    def edit(r): r[index][key] = value
    return edit
def swap(i, j):
    def edit(r): r[i], r[j] = r[j], r[i]
    return edit
def insert(index, record):
    def edit(r): r.insert(index, record)
    return edit
cases = [
    ("claim-window-max", 1, "claim-window-ms", setting("claimWindowMs", 2**63 - 1)),
    ("points-lost-huge", 1, "set-points-lost-per-second", setting("setPointsLostPerSecond", 2**62)),
    ("grace-negative", 1, "deal-grace-ms", setting("dealGraceMs", -2**63)),
    ("match-name-path", 1, "match name", field(0, "name", "../../etc")),
    ("seat-at-min", 2, "out of range", field(1, "at", -2**63)),
    ("seat-number-max", 5, "bad seat", field(4, "seat", 2**63 - 1)),
    ("seat-number-min", 5, "bad seat", field(4, "seat", -2**63)),
    ("name-escape", 2, "player name", field(1, "name", "ann\u001b[2J")),
    ("game-max", 4, "follows game 0", field(3, "game", 2**63 - 1)),
    ("claim-at-max", 5, "out of range", field(4, "at", 2**63 - 10)),
    ("seq-max", 5, "event number", field(4, "seq", 2**63 - 1)),
    ("card-max", 6, "bad card", field(5, "card", 2**63 - 1)),
    ("watchers-max", 6, "spectators", insert(5, {"type": "watchers", "count": 2**63 - 1, "seq": 5, "at": base[4]["at"]})),
    ("time-backwards", 6, "records out of order", field(5, "at", base[4]["at"] - 1)),
    ("seq-backwards", 6, "comes after", field(5, "seq", 1)),
    ("header-not-first", 1, "not the match header", swap(0, 1)),
    ("second-header", 6, "a second header", insert(5, base[0])),
    ("game-twice", 5, "game 1 follows game 1", insert(4, base[3])),
]
for name, record, says, edit in cases:
    records = copy.deepcopy(base)
    edit(records)
    with open(f"{folder}/{name}.jsonl", "w") as f:
        for r in records: f.write(json.dumps(r, separators=(",", ":")) + "\n")
    print(f"{name}\t{record}\t{says}")
PY
cp "$out/real/good.jsonl" "$out/data/good.jsonl"
cases=$(wc -l <"$out/manifest")

# serve starts on the folder, sets every crafted journal aside and restores the good match (the
# folder was made by hand: journals and no accounts store, which serve starts empty only if asked).
start_server "$out/data" "$out/serve" --empty-store
grep -q 'restored good' "$out/serve.err" || { cat "$out/serve.err" >&2; fail "the good match was not restored"; }
while IFS=$'\t' read -r name record says; do
    grep -qF "journal $name.jsonl is damaged (record $record: " "$out/serve.err" \
        || { cat "$out/serve.err" >&2; fail "serve did not set $name aside at record $record"; }
done <"$out/manifest"
aside=$(ls "$out/data/damaged" | wc -l)
[ "$aside" -eq "$cases" ] || fail "$aside journals in damaged/, expected $cases"
stop_server

# replay reports each with its record number, exit status 1: no trap (which would be 132+).
while IFS=$'\t' read -r name record says; do
    file=$(ls "$out/data/damaged/$name.jsonl."*)
    status=0
    "$bin" replay "$file" >"$out/replay.out" 2>"$out/replay.err" || status=$?
    [ "$status" -eq 1 ] || { cat "$out/replay.err" >&2; fail "replay of $name exited $status, expected 1"; }
    grep -qF "record $record: " "$out/replay.err" || { cat "$out/replay.err" >&2; fail "replay of $name did not name record $record"; }
    grep -qF -- "$says" "$out/replay.err" || { cat "$out/replay.err" >&2; fail "replay of $name did not say '$says'"; }
done <"$out/manifest"
"$bin" replay "$out/real/good.jsonl" >"$out/replay.out" || fail "the good journal did not replay"
grep -q 'took a set' "$out/replay.out" || fail "the good replay did not show the set"
# A server-state.json out of range (issue 22): `--check` names it and exits 0, and serve sets it
# aside and starts. A lease near 2^63 used to trap serve before it listened: a crash loop.
mkdir -p "$out/state"
printf '{"clockLease":9223372036854775000}' >"$out/state/server-state.json"
"$bin" serve --port 0 --data "$out/state" --check >"$out/check.out" 2>"$out/check.err" \
    || fail "--check refused a folder serve starts on: $(cat "$out/check.err")"
grep -qF "server-state.json has clockLease 9223372036854775000" "$out/check.err" \
    || fail "--check did not name the bad server-state.json: $(cat "$out/check.err")"
start_server "$out/state" "$out/state-serve"
grep -qF "moved to $out/state/damaged/server-state.json." "$out/state-serve.err" \
    || { cat "$out/state-serve.err" >&2; fail "serve did not set the bad server-state.json aside"; }
stop_server
trap - EXIT
rm -rf "$out"
echo "journals: serve started on $cases crafted journals and set them aside; replay named each record"
