#!/usr/bin/env bash
# `setgame serve` as a stranger would use it: raw sockets, the lines from Protocol.md, SIGTERM.
set -euo pipefail
bin="${SETGAME:?path to the setgame binary}"
. "$(dirname "$0")/../lib.sh"
out=$(mktemp -d)
"$bin" serve --port 0 --seed 42 --data "$out/data" >"$out/stdout" 2>"$out/stderr" &
server=$!
trap 'kill $server 2>/dev/null || true' EXIT
for _ in $(seq 300); do grep -q 'serving on' "$out/stdout" 2>/dev/null && break; sleep 0.1; done
port=$(sed -n 's/.*serving on 127.0.0.1:\([0-9]*\).*/\1/p' "$out/stdout")
[ -n "$port" ] || fail "serve did not say where it listens"

python3 - "$port" <<'PY'
import json, socket, sys
port = int(sys.argv[1])
def connect():
    s = socket.create_connection(("127.0.0.1", port), timeout=10)
    return s, s.makefile("rb")
def read(f):
    line = f.readline()
    assert line.endswith(b"\n"), "no line"
    return json.loads(line)
def until(f, pred):
    while True:
        m = read(f)
        if pred(m): return m
a, af = connect(); b, bf = connect()
assert read(af)["type"] == "welcome" and read(bf)["type"] == "welcome"
a.sendall(b'{"type":"join","name":"ann","match":"e2e"}\n')
assert read(af)["type"] == "joined"
b.sendall(b'{"type":"join","name":"bob","match":"e2e"}\n')
assert read(bf)["type"] == "joined"
snap = read(bf)
assert snap["type"] == "snapshot" and snap["table"] == [9,40,16,30,47,20,0,14,75,45,77,19], snap
a.sendall(b'{"type":"claim"}\n{"type":"select","card":9}\n{"type":"select","card":16}\n{"type":"select","card":14}\n')
taken = until(bf, lambda m: m.get("kind") == "set_taken")
assert taken["seat"] == 0 and taken["points"] == 30, taken
b.sendall(b'this is not json\n')
err = until(bf, lambda m: m["type"] == "error")
assert err["code"] == "bad_json" and not err["fatal"], err
print("serve: a set taken over raw sockets; bad input answered with bad_json")
PY
kill -TERM $server
wait $server || fail "serve did not exit 0 on SIGTERM"
grep -q 'stopped' "$out/stderr" || fail "serve did not log its stop"
trap - EXIT
echo "serve: ok"
