#!/usr/bin/env bash
# The import of an old accounts log (issue 43, item 4), with the real binary: the import benchmark
# once at a small size on SQLite and PostgreSQL (counts only, never a speed), and an import killed
# with -9 midway is done again whole at the next start, equal to a clean one.
set -euo pipefail
bin="${SETGAME:?path to the setgame binary}"
export SETGAME="$bin"
here="$(dirname "$0")"
stores=sqlite
[ -n "${SETGAME_TEST_POSTGRES:-}" ] && stores=sqlite,postgresql
STORES=$stores python3 "$here/../import-bench.py" 3000 300
exec python3 "$here/import_kill.py"
