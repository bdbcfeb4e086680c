#!/usr/bin/env bash
# Arenas over the real binary (issue 44, what is built so far): `setgame arena` opens one, lists
# it and prints its standings; the server is killed with -9 and restarted on its data folder, and
# the arena is still there, once, read back by the CLI and from the SQLite store. A second arena
# is killed -9 in the middle of a duel: the duel is finished after the restart and the standings
# equal a recount of the stored games. A server with --arena-schedule lists its next slot's arena.
set -euo pipefail
bin="${SETGAME:?path to the setgame binary}"
export SETGAME="$bin"
exec python3 "$(dirname "$0")/arena.py"
