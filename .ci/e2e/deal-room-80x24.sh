#!/usr/bin/env bash
# Issue 36: at 80×24 "Deal 3" is refused once three more cards would need cards smaller than
# 9×5 (the assignments' "no more room in the UI"): a solo table grows by deals to 30 cards, the
# next deal says there is no room and sends nothing, and the table stays at 30.
set -euo pipefail
bin="${SETGAME:?path to the setgame binary}"
. "$(dirname "$0")/../lib.sh"
session=setgame-deal-room-$$
state=$(mktemp -d)
tmux kill-session -t "$session" 2>/dev/null || true
tmux new-session -d -s "$session" -x 80 -y 24
trap 'tmux kill-session -t "$session" 2>/dev/null || true; rm -rf "$state"' EXIT

run_in "$session" play "XDG_STATE_HOME=$state $bin play --solo --seed 42 --name dealer --no-animation"
wait_for_cards "$session" 12
for count in 15 18 21 24 27 30; do
    tmux send-keys -t "$session" d
    wait_for_cards "$session" "$count"
done
wait_for "$session" "deck 51"
tmux send-keys -t "$session" d
wait_for "$session" "no room for 3 more cards"
wait_for_cards "$session" 30
tmux capture-pane -p -t "$session" | grep -qF "deck 51" || fail "a refused deal took cards from the deck"
tmux send-keys -t "$session" q
echo "deal-room-80x24: ok"
