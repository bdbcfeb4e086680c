#!/usr/bin/env bash
# A smoke run of the benchmark: correctness under load (it exits non-zero on any error or drop);
# it asserts no timing.
set -euo pipefail
bin="${SETGAME:?path to the setgame binary}"
"$bin" bench --matches 20 --duration 5
"$bin" bench --matches 20 --duration 3 --pace 0 --json | python3 -c 'import json,sys; r=json.load(sys.stdin); assert r["errors"]==0 and r["drops"]==0 and r["actions"]>0, r; print("bench --pace 0:", r["actions"], "actions, 0 errors")'
for mode in junior chain ultra; do
    "$bin" bench --mode "$mode" --matches 10 --duration 2 --pace 0 --json | python3 -c 'import json,sys; r=json.load(sys.stdin); assert r["errors"]==0 and r["drops"]==0 and r["actions"]>0, r; print("bench --mode '"$mode"':", r["actions"], "actions, 0 errors")'
done
"$bin" bench rules
echo "bench: ok"
