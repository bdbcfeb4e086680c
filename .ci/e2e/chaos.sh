#!/usr/bin/env bash
# A chaos run (issue 42): three nodes on one throwaway PostgreSQL for CHAOS_SECONDS (120): duels at
# human pace (CHAOS_DUELS, 200), lobby challenges and a door player (through node a's door socket),
# while a random node is killed -9 and restarted every ~15 s, PostgreSQL is restarted once and
# stopped (SIGSTOP) for 5 s once. Then: no acknowledged action or rated result lost or doubled,
# every player back in its seat, no match on two nodes, every challenge played or told expired,
# every request answered. Prints its seed; CHAOS_SEED=N replays the schedule. Bounded: the whole
# run is stopped (and cleaned up by chaos.py's exit handlers) if it outlives its time.
set -euo pipefail
bin="${SETGAME:?path to the setgame binary}"
export SETGAME="$bin"
seconds=${CHAOS_SECONDS:-120}
here=$(cd "$(dirname "$0")" && pwd)
ulimit -n 65536 2>/dev/null || ulimit -n "$(ulimit -Hn)"
pid=""
# `|| true`: under `set -e` a failed kill (the run already over) would turn a pass into status 1.
trap '{ [ -n "$pid" ] && kill -TERM "$pid" 2>/dev/null; } || true; wait 2>/dev/null || true' EXIT INT TERM
# The chaos, the settling (150 s), a seat's return (90 s) and the checks, with room to spare.
timeout --signal=TERM --kill-after=30 $((${seconds%.*} + 480)) python3 "$here/chaos.py" &
pid=$!
wait "$pid"
