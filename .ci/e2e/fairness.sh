#!/usr/bin/env bash
# Claim races across distances (`setgame bench --fairness`): a near racer and one behind a relay
# delaying each way by 80 ms (steady, then ±20 ms) race on the real server for claim windows,
# thinking alike. Compensation off, the near one must win most; on, neither may take most.
# At 100 races one standard deviation is 5 points and a loaded 2-core box adds scheduling noise to
# every delay, so the check is looser than the README's 200-race figures (40-60 %): each side at
# least 30 % with compensation, the near side at least 75 % without (it wins about 92 %).
set -euo pipefail
bin="${SETGAME:?path to the setgame binary}"
. "$(dirname "$0")/../lib.sh"
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

races=100
TMPDIR="$out/" "$bin" bench --fairness --races "$races" --delay-ms 80 --jitter-ms 20 >"$out/shares" 2>"$out/bench.err" \
    || fail "bench --fairness failed: $(cat "$out/bench.err")"
cat "$out/shares"
[ "$(wc -l <"$out/shares")" -eq 4 ] || fail "expected four settings, got: $(cat "$out/shares")"
while IFS= read -r line; do
    near=$(sed -E 's/.*near +([0-9.]+) %.*/\1/' <<<"$line")
    count=$(sed -E 's/.* of ([0-9]+) races/\1/' <<<"$line")
    [ "$count" -ge "$races" ] || fail "only $count races counted: $line"
    case "$line" in
        *"compensation off"*) awk -v n="$near" 'BEGIN { exit !(n >= 75) }' || fail "without compensation the near side should win most: $line" ;;
        *) awk -v n="$near" 'BEGIN { exit !(n >= 30 && n <= 70) }' || fail "with compensation neither side may win most: $line" ;;
    esac
done <"$out/shares"
echo "fairness: compensation splits the races, without it the near side wins"
