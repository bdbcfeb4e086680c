#!/usr/bin/env bash
# contrib/haproxy.cfg in front of real servers on loopback: haproxy accepts it, and its health
# check (welcome, then `health`) keeps a ready node in and takes out both a node whose PostgreSQL
# is down (alive, not ready) and one nobody listens on; a player through haproxy reaches a node,
# and 24 players from 24 addresses each make an account through it: the nodes read haproxy's
# PROXY v2 header (--proxy-from) and count each by its own address, not haproxy's.
set -euo pipefail
bin="${SETGAME:?path to the setgame binary}"
. "$(dirname "$0")/../lib.sh"
root="$(cd "$(dirname "$0")/../.." && pwd)"
command -v haproxy >/dev/null 2>&1 || fail "haproxy is not installed (apt-get install haproxy)"
out=$(mktemp -d)
pids=()
pg_dir=""
cleanup() {
    for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
    # Servers started by `serve` inside $(…) are not in pids (a subshell's array): found by folder.
    pkill -f -- "--data $out/" 2>/dev/null || true
    [ -n "$pg_dir" ] && "$root/.ci/postgres.sh" stop "$pg_dir"
    rm -rf "$out"
}
trap cleanup EXIT
free_port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }

serve() {  # NAME ARG...: starts a server on a free port; prints the port
    local name=$1 port
    shift
    "$bin" serve --port 0 --data "$out/$name" "$@" >"$out/$name.txt" 2>&1 &
    pids+=($!)
    for _ in $(seq 300); do grep -q 'serving on' "$out/$name.txt" 2>/dev/null && break; sleep 0.1; done
    port=$(sed -n 's/.*serving on 127.0.0.1:\([0-9]*\).*/\1/p' "$out/$name.txt")
    [ -n "$port" ] || { cat "$out/$name.txt" >&2; fail "server $name did not start"; }
    echo "$port"
}

read -r pg_url pg_dir < <("$root/.ci/postgres.sh" start)
ready=$(serve ready --store memory --proxy-from 127.0.0.1)
away=$(serve away --store "$pg_url" --proxy-from 127.0.0.1)
"$root/.ci/postgres.sh" stop "$pg_dir"  # the second node is alive, and its store is away
pg_dir=""
nobody=$(free_port)
front=$(free_port)

# The example, its servers and its public port swapped for ours, checked often, with a stats socket to ask.
sed -e "s/a\.play\.example\.org:7380/127.0.0.1:$ready/; s/b\.play\.example\.org:7380/127.0.0.1:$away/; s/c\.play\.example\.org:7380/127.0.0.1:$nobody/" \
    -e "s/bind :7380/bind 127.0.0.1:$front/; s/inter 5s/inter 200ms/" \
    -e "s#^global\$#global\n    stats socket $out/haproxy.sock level admin#" "$root/contrib/haproxy.cfg" >"$out/haproxy.cfg"
grep -q "127.0.0.1:$nobody" "$out/haproxy.cfg" && grep -q "bind 127.0.0.1:$front" "$out/haproxy.cfg" || fail "could not adapt contrib/haproxy.cfg"
haproxy -c -q -f "$out/haproxy.cfg" || fail "haproxy refuses contrib/haproxy.cfg"
haproxy -db -f "$out/haproxy.cfg" >"$out/haproxy.log" 2>&1 &
pids+=($!)

states() {  # "a:UP b:DOWN c:DOWN" from haproxy's own statistics
    python3 - "$out/haproxy.sock" <<'PY'
import socket, sys
s = socket.socket(socket.AF_UNIX)
try:
    s.connect(sys.argv[1])
except OSError:
    sys.exit(0)
s.sendall(b"show stat\n")
data = b""
while chunk := s.recv(65536):
    data += chunk
rows = [line.split(",") for line in data.decode().splitlines() if line and not line.startswith("#")]
print(" ".join(f"{row[1]}:{row[17].split()[0]}" for row in rows if row[0] == "nodes" and row[1] in "abc"))
PY
}
expected="a:UP b:DOWN c:DOWN"
for _ in $(seq 150); do [ "$(states)" = "$expected" ] && break; sleep 0.1; done
[ "$(states)" = "$expected" ] || { cat "$out/haproxy.log" >&2; fail "haproxy's servers are '$(states)', not '$expected'"; }
echo "haproxy: $expected (ready node in; a node without its store and an absent one out)"

# A player through haproxy's port: the ready node's welcome and its answer to health.
said=$("$bin" serve --check --address "127.0.0.1:$front") || fail "through haproxy: $said"
echo "haproxy: through 127.0.0.1:$front: $said"
# contrib/haproxy.cfg logs each connection on standard output once it ends: that one went to node a.
for _ in $(seq 100); do grep -q ' players nodes/a ' "$out/haproxy.log" && break; sleep 0.1; done
grep -q ' players nodes/a ' "$out/haproxy.log" || { cat "$out/haproxy.log" >&2; fail "haproxy logged no line for the connection to node a"; }
echo "haproxy: logged $(grep ' players nodes/a ' "$out/haproxy.log" | head -1 | cut -d' ' -f1-4)"

# 24 new accounts from 24 addresses (127.0.0.2-25) through haproxy: one address may make 20 at
# once, so without the PROXY header (all from haproxy's 127.0.0.1) 4 would be refused account_limit.
python3 - "$front" <<'PY' || fail "24 players from 24 addresses were not all admitted through haproxy"
import json, socket, sys
front = int(sys.argv[1])
players = []
for n in range(2, 26):
    s = socket.socket()
    s.settimeout(20)
    s.bind((f"127.0.0.{n}", 0))
    s.connect(("127.0.0.1", front))
    f = s.makefile("rb")
    assert json.loads(f.readline())["type"] == "welcome"
    s.sendall((json.dumps({"type": "join", "name": f"p{n}", "match": f"m{n}", "account": f"{n:02x}" * 32}) + "\n").encode())
    answer = json.loads(f.readline())
    if answer["type"] != "joined":
        sys.exit(f"127.0.0.{n}: {answer}")
    players.append((s, f))
print(f"haproxy: {len(players)} players from {len(players)} addresses made their accounts and sat down")
PY
grep -q "account-limit\|refused a join" "$out/ready.txt" && fail "the node refused a join: $(grep 'refused' "$out/ready.txt")"
echo "haproxy ok"
