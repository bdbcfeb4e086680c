#!/usr/bin/env bash
# A smoke run of the door's benchmark (.ci/door-bench) so that it cannot rot: two timed logins
# through a real sshd, two more through an sshd under strace for the breakdown, and two bot duels
# for the memory figure. It asserts only that each part completes and says what it measured
# (each login reaching its twelve cards, or the bench fails), never a time.
set -euo pipefail
bin="${SETGAME:?path to the setgame binary}"
. "$(dirname "$0")/../lib.sh"
root="$(cd "$(dirname "$0")/../.." && pwd)"
[ "$(id -u)" = 0 ] || { echo "the door bench needs root for sshd and its users; skipped"; exit 0; }
out=$(mktemp)
trap 'rm -f "$out"' EXIT
SETGAME="$bin" DOOR_BENCH_RUNS=2 DOOR_BENCH_TRACE=2 DOOR_BENCH_SESSIONS=2 "$root/.ci/door-bench" >"$out" 2>&1 \
    || { cat "$out" >&2; fail "the door bench exited non-zero"; }
grep -v '^usermod:' "$out"
grep -qE '^ssh to twelve cards in place, 2 logins of a solo game: median [0-9.]+ ms, p90 [0-9]+ ms' "$out" || fail "no timed logins"
grep -qE "^ssh to a refused command's exit: median" "$out" || fail "no refused commands"
# Every stage of the breakdown was found in the trace (a dash is a stage it did not see).
[ "$(grep -cE '^ +[0-9]+ +[+-]?[0-9]*  ' "$out")" = 10 ] || { cat "$out" >&2; fail "the breakdown misses a stage"; }
grep -qE '^2 bot duels through the door at once: [0-9]+ door processes' "$out" || fail "no memory figure"
echo "door-bench: ok"
