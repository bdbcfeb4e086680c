#!/usr/bin/env bash
# Nothing lost: the real server is killed with SIGKILL at several points of a seeded duel
# (between actions, in the middle of a burst, and with a torn journal line), restarted on the same
# data, and the players come back with their tokens. Each time, the snapshot holds every action
# that was acknowledged, and the match ends exactly as an uninterrupted one. Then `setgame replay`
# prints the finished journal and checks the seed against its commitment.
set -euo pipefail
bin="${SETGAME:?path to the setgame binary}"
export SETGAME="$bin"
exec python3 "$(dirname "$0")/restart.py"
