#!/usr/bin/env bash
# An arena played by bots over two nodes (issue 44): a throwaway PostgreSQL, two nodes on it, an
# arena of one minute, a dozen `setgame bot --arena` bots (half through each node), played to its
# final standings; `setgame arena --results` through each node agree, and equal a recount of the
# stored games read with psql. Then the arena benchmark once, small, so it cannot rot.
set -euo pipefail
bin="${SETGAME:?path to the setgame binary}"
export SETGAME="$bin"
python3 "$(dirname "$0")/arena_bots.py"
# The arena benchmark, small, so it cannot rot: its exit status says the run held, never how fast.
"$(dirname "$0")/../arena-bench" --bots 20 --minutes 1 --nodes 3 --level instant --starts-in 5
