#!/usr/bin/env bash
# A benchmark, not a test (issue 35's goal): 1,000 duels at human pace spread over three nodes
# sharing one throwaway PostgreSQL, against the same 1,000 duels on one node of the same store.
# Every node is pinned to CPU 0 (taskset) and the load generator to CPU 1, so three nodes share
# what one node had. Prints `setgame bench --json` for each run.
#   SETGAME=.build/release/setgame .ci/nodes-bench.sh [MATCHES] [SECONDS] [ROUNDS]
set -euo pipefail
bin="${SETGAME:?path to the setgame binary (a release build)}"
matches=${1:-1000} seconds=${2:-10} rounds=${3:-2}
here=$(cd "$(dirname "$0")" && pwd)
read -r url pgdir < <("$here/postgres.sh" start)
work=$(mktemp -d /tmp/setgame-nodes-bench.XXXXXX)
pids=()
stop_nodes() { for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; wait "$p" 2>/dev/null || true; done; pids=(); }
trap 'stop_nodes; "$here/postgres.sh" stop "$pgdir"; rm -rf "$work"' EXIT
ulimit -n 65536 2>/dev/null || ulimit -n "$(ulimit -Hn)"

start_node() {  # NAME HOST
    local name=$1 host=$2 port
    port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("'"$host"'", 0)); print(s.getsockname()[1])')
    taskset -c 0 "$bin" serve --host "$host" --port "$port" --data "$work/$name" --store "$url" \
        --node "$name" --advertise "$host:$port" >"$work/$name.log" 2>&1 &
    pids+=($!)
    for _ in $(seq 100); do "$bin" serve --check --address "$host:$port" >/dev/null 2>&1 && break; sleep 0.2; done
    servers="${servers:+$servers,}$host:$port"
}

run() {  # LABEL NODE-COUNT
    local label=$1 count=$2 round
    for round in $(seq "$rounds"); do
        servers=""
        start_node a 127.0.0.1
        [ "$count" -ge 2 ] && start_node b 127.0.0.2
        [ "$count" -ge 3 ] && start_node c 127.0.0.3
        echo "== $label, round $round: $servers"
        taskset -c 1 "$bin" bench --server "$servers" --matches "$matches" --spectators 2 --pace 500 --duration "$seconds" --json
        stop_nodes
        rm -rf "${work:?}"/a "${work:?}"/b "${work:?}"/c
    done
}

run "one node" 1
run "three nodes" 3
