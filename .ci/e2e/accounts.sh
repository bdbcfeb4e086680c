#!/usr/bin/env bash
# Accounts survive kill -9: rated duels whose server is killed the moment a player resigns are
# each recorded exactly once after the restart, with the ratings game_over told; the CLI reads
# them back (profile, history, leaderboard) within 80 columns and as JSON.
set -euo pipefail
bin="${SETGAME:?path to the setgame binary}"
export SETGAME="$bin"
exec python3 "$(dirname "$0")/accounts.py"
