#!/usr/bin/env bash
# ^C during `setgame bench` stops its own `setgame serve` (in a process group of its own, so the
# terminal's SIGINT does not reach it) and removes its folder; `--server` against a server whose
# per-address limits refuse the load ends with the server's reason instead of waiting forever.
set -euo pipefail
bin="${SETGAME:?path to the setgame binary}"
. "$(dirname "$0")/../lib.sh"
out=$(mktemp -d)
serve_pid=""
trap '[ -n "$serve_pid" ] && kill "$serve_pid" 2>/dev/null; rm -rf "$out"' EXIT

# A long bench, interrupted once it measures.
TMPDIR="$out/" "$bin" bench --matches 2 --spectators 0 --pace 50 --duration 3600 2>"$out/bench.err" >/dev/null &
bench=$!
waited=0
until grep -q measuring "$out/bench.err"; do
    kill -0 "$bench" 2>/dev/null || fail "bench ended before it measured: $(cat "$out/bench.err")"
    sleep 0.2
    waited=$((waited + 1))
    [ "$waited" -lt 300 ] || fail "bench did not start measuring: $(cat "$out/bench.err")"
done
server=$(pgrep -P "$bench" | head -1)
[ -n "$server" ] || fail "bench runs no server of its own"
[ -d "$out/setgame-bench-$bench" ] || fail "no folder for the bench's server: $(ls "$out")"
kill -INT "$bench"
status=0
wait "$bench" || status=$?
[ "$status" = 130 ] || fail "bench exited $status after SIGINT, not 130"
kill -0 "$server" 2>/dev/null && fail "the bench's server $server is still running after ^C"
[ -e "$out/setgame-bench-$bench" ] && fail "the bench's folder is left behind: $(ls -R "$out/setgame-bench-$bench")"
echo "bench-stop: ^C stopped the server and removed its folder"

# A server allowing one connection per address, loaded from the machine's own non-loopback
# address (as another machine would): the bench cannot spread, is refused, and says why.
address=$(hostname -I 2>/dev/null | awk '{print $1}')
if [ -n "$address" ]; then
    "$bin" serve --host 0.0.0.0 --port 0 --data "$out/data" --connections-per-address 1 >"$out/serve.out" 2>/dev/null &
    serve_pid=$!
    waited=0
    until grep -q 'serving on' "$out/serve.out"; do
        sleep 0.2
        waited=$((waited + 1))
        [ "$waited" -lt 300 ] || fail "serve did not start"
    done
    port=$(sed -n 's/.*serving on .*:\([0-9]*\)$/\1/p' "$out/serve.out")
    status=0
    timeout 120 "$bin" bench --server "$address:$port" --matches 2 --spectators 0 --duration 1 >/dev/null 2>"$out/refused.err" || status=$?
    [ "$status" = 1 ] || fail "bench against a refusing server exited $status (124: it hung): $(cat "$out/refused.err")"
    grep -q 'address_limit' "$out/refused.err" || fail "bench did not give the server's reason: $(cat "$out/refused.err")"
    grep -q 'hint:' "$out/refused.err" || fail "bench gave no hint: $(cat "$out/refused.err")"
    echo "bench-stop: a refusing server ends the bench with its reason"
else
    echo "bench-stop: no non-loopback address here; the refusal is covered by BenchLimitsTests"
fi
echo "bench-stop: ok"
