#!/usr/bin/env bash
# The journal's promises on the real binary: kill -9 right after a rematch, two servers on one data
# folder, and a full disk (a 512 KiB tmpfs, where the machine allows mounting one; otherwise the
# script says it skipped that part and the swift tests' injected failing writer covers it).
set -euo pipefail
bin="${SETGAME:?path to the setgame binary}"
export SETGAME="$bin"
exec timeout 120 python3 "$(dirname "$0")/promises.py"
