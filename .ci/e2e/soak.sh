#!/usr/bin/env bash
# Randomized kill -9 soak: 20 SIGKILLs at random instants of three bot-versus-bot duels that keep
# asking for rematches. After each restart every event line a player had received comes back byte
# for byte, no journal is ever damaged, and every game's seed keeps its commitment (see soak.py).
# SOAK_SEED=N repeats a run's kill instants; SOAK_KILLS=N changes how many.
set -euo pipefail
bin="${SETGAME:?path to the setgame binary}"
export SETGAME="$bin"
exec timeout 240 python3 "$(dirname "$0")/soak.py"
