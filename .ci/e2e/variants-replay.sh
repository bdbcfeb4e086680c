#!/usr/bin/env bash
# Variants through the real binaries: two `setgame bot --mode` players a match of each variant on
# `setgame serve`, a player asking for another variant is refused, the listing names each one,
# and `setgame replay` rebuilds every journal and checks each deal against its seed.
set -euo pipefail
bin="${SETGAME:?path to the setgame binary}"
. "$(dirname "$0")/../lib.sh"
out=$(mktemp -d)
pids=()
cleanup() { for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done; rm -rf "$out"; }
trap cleanup EXIT
"$bin" serve --port 0 --seed 5 --data "$out/data" >"$out/stdout" 2>"$out/stderr" &
server=$!
pids+=("$server")
for _ in $(seq 300); do grep -q 'serving on' "$out/stdout" 2>/dev/null && break; sleep 0.1; done
port=$(sed -n 's/.*serving on 127.0.0.1:\([0-9]*\).*/\1/p' "$out/stdout")
[ -n "$port" ] || fail "serve did not say where it listens"

# listed STATE: waits until the listing shows each variant's match in STATE, with its variant.
listed() {
    python3 - "$port" "$1" <<'PY'
import json, socket, sys, time
port, state = int(sys.argv[1]), sys.argv[2]
s = socket.create_connection(("127.0.0.1", port), timeout=10)
f = s.makefile("rb")
assert json.loads(f.readline())["type"] == "welcome"
deadline = time.time() + 60
while True:
    s.sendall(b'{"type":"list"}\n')
    listing = json.loads(f.readline())
    found = {m["name"]: m for m in listing["matches"]}
    if all(found.get(f"{v}-e2e", {}).get("variant") == v and found[f"{v}-e2e"]["state"] == state for v in ("junior", "chain", "ultra")):
        break
    assert time.time() < deadline, f"the matches never were all {state}: {listing}"
    time.sleep(0.2)
if state == "playing":
    s.sendall(b'{"type":"join","name":"cat","match":"ultra-e2e","variant":"junior"}\n')
    error = json.loads(f.readline())
    assert error["type"] == "error" and error["code"] == "variant_mismatch" and error["variant"] == "ultra", error
    print("variants-replay: the listing names every variant; a junior join of ultra-e2e is variant_mismatch")
PY
}

# The first bot of each match creates it with --mode; the second names no variant and follows.
for mode in junior chain ultra; do
    "$bin" bot "127.0.0.1:$port" --match "$mode-e2e" --mode "$mode" --level instant --name "a-$mode" --seed 1 >/dev/null 2>&1 &
    pids+=($!)
done
listed waiting
for mode in junior chain ultra; do
    "$bin" bot "127.0.0.1:$port" --match "$mode-e2e" --level instant --name "b-$mode" --seed 2 >/dev/null 2>&1 &
    pids+=($!)
done
listed playing
# The instant bots finish a game and ask for a rematch: a second game in the journal is the result.
for mode in junior chain ultra; do
    for _ in $(seq 300); do grep -q '"game":2' "$out/data/$mode-e2e.jsonl" 2>/dev/null && break; sleep 0.2; done
    grep -q '"game":2' "$out/data/$mode-e2e.jsonl" || fail "$mode-e2e never finished a game"
done
for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
wait 2>/dev/null || true

for mode in junior chain ultra; do
    # Stopped while playing, a match keeps its journal in place for a restart; stopped between two
    # games (instant bots finish one quickly on a busy machine), its journal went to finished/.
    journal="$out/data/$mode-e2e.jsonl"
    [ -f "$journal" ] || journal=$(ls "$out/data/finished/$mode-e2e"-*.jsonl 2>/dev/null | head -1 || true)
    [ -n "$journal" ] && [ -f "$journal" ] || fail "no journal for $mode-e2e, in place or in finished/: $(ls -R "$out/data")"
    "$bin" replay "$journal" >"$out/replay-$mode.txt" || fail "replay of $mode-e2e failed: $(tail -3 "$out/replay-$mode.txt")"
    grep -q "of $(case $mode in junior) echo Junior;; chain) echo Set-Chain;; ultra) echo UltraSet;; esac)" "$out/replay-$mode.txt" || fail "replay does not name the variant of $mode-e2e"
    grep -q "matches its commitment" "$out/replay-$mode.txt" || fail "replay did not check a seed of $mode-e2e"
    grep -q "game over (no_sets_left)" "$out/replay-$mode.txt" || fail "no game of $mode-e2e played to its end"
    echo "variants-replay: $mode: $(grep -c 'took' "$out/replay-$mode.txt") picks replayed, every seed and deal checked"
done
echo "variants-replay: ok"
