#!/usr/bin/env bash
# The deals pinned in DeckTests.swift are what an independent Python port of the shuffle deals.
set -euo pipefail
cd "$(dirname "$0")/../.."
. .ci/lib.sh
checked=0
while IFS= read -r line; do
    seed=$(sed -E 's/^ *\(([0-9]+), \[.*$/\1/' <<<"$line")
    ids=$(sed -E 's/^.*\[(.*)\]\),$/\1/' <<<"$line")
    count=$(tr ',' '\n' <<<"$ids" | wc -l)
    dealt=$(python3 Tests/Oracles/deck_oracle.py "$seed" "$count")
    [ "$dealt" = "$ids" ] || fail "seed $seed: DeckTests pins [$ids], the port deals [$dealt]"
    checked=$((checked + 1))
done < <(grep -E '^    \([0-9]+, \[[0-9, ]+\]\),$' Tests/SetRulesTests/DeckTests.swift)
[ "$checked" -ge 4 ] || fail "found only $checked pinned deals in DeckTests.swift"
echo "deck-oracle: ok ($checked deals)"
