#!/usr/bin/env bash
# Arenas over the real binary (issue 44, what is built so far): `setgame arena` opens one, lists
# it and prints its standings; the server is killed with -9 and restarted on its data folder, and
# the arena is still there, once, read back by the CLI and from the SQLite store; an account that
# joined it finds it in `setgame profile`. A second arena is killed -9 in the middle of a duel: the
# duel is finished after the restart and the standings equal a recount of the stored games. A
# server with --arena-schedule lists its next slot's arena.
set -euo pipefail
bin="${SETGAME:?path to the setgame binary}"
export SETGAME="$bin"
python3 "$(dirname "$0")/arena.py"
# The profile's arenas benchmark, once at a small size so it cannot rot (no timing is checked).
exec python3 "$(dirname "$0")/arena_profile_bench.py" 2 10 20 1
