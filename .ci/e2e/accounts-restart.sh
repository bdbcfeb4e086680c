#!/usr/bin/env bash
# Issue 43 item 5, once at a small size: accounts-bench's loaded window on PostgreSQL, with
# `pg_ctl restart` in its middle while twenty accounts play rated games, cuts no rated game
# (every game begun is told its end: a record waits across the restart). Counts only, no timing.
set -euo pipefail
bin="${SETGAME:?path to the setgame binary}"
cd "$(dirname "$0")/../.."
SETGAME="$bin" STORES=postgresql ROUNDS=1 SECONDS_LOADED=16 CHECK=1 REALTIME=0 python3 .ci/accounts-bench.py 200 200 20
echo "accounts-restart: ok"
