#!/usr/bin/env bash
# Three nodes sharing one throwaway PostgreSQL on 127.0.0.1, .2 and .3 (issue 35): cross-node
# pairing, a redirect followed by `setgame join` in tmux, a spectator on the third node, a node
# killed with SIGKILL and restarted (its duel resumes with the same tokens, node_away meanwhile),
# PostgreSQL restarted under play (nothing acknowledged lost), and a rated game's profile read on
# another node.
set -euo pipefail
bin="${SETGAME:?path to the setgame binary}"
export SETGAME="$bin"
exec python3 "$(dirname "$0")/nodes.py"
