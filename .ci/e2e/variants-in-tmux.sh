#!/usr/bin/env bash
# The variants as a player meets them, in tmux: UltraSet solo takes four keys for an ultra, and
# Set-Chain shows the chain apart once the first set is taken.
set -euo pipefail
bin="${SETGAME:?path to the setgame binary}"
. "$(dirname "$0")/../lib.sh"
session=setgame-variants-$$
state=$(mktemp -d /tmp/setgame-variants-XXXXXX)
tmux kill-session -t "$session" 2>/dev/null || true
tmux new-session -d -s "$session" -x 120 -y 40
trap 'tmux kill-session -t "$session" 2>/dev/null || true; rm -rf "$state"' EXIT

run_in "$session" ultra "XDG_STATE_HOME=$state $bin play --solo --mode ultra --seed 42 --name solver"
wait_for "$session" "UltraSet"
wait_for_cards "$session" 12
# Seed 42's table: cards 9 and 40 (labels 1, 2) and 30 and 19 (labels 4, b) are both completed by card 71.
pick_cards "$session" 1 2 4 b
wait_for "$session" "you took an ultra"
tmux send-keys -t "$session" q
expect_status "$session" ultra 0

run_in "$session" chain "XDG_STATE_HOME=$state $bin play --mode chain --level easy --seed 42 --name linker"
wait_for "$session" "Press any key to start"
tmux send-keys -t "$session" Space
wait_for "$session" "Set-Chain"
wait_for "$session" "bot-easy"
wait_for_cards "$session" 12
# The same deal as the classic game: its only set, cards 9, 16 and 14, as labels 1, 3 and 8.
pick_cards "$session" 1 3 8
wait_for "$session" "you took a set"
wait_for "$session" " chain "
# The chain's three cards keep their labels; the three dealt in their place take the next free ones.
wait_for_cards "$session" 15
tmux send-keys -t "$session" q
wait_for "$session" "Your game is kept"
tmux send-keys -t "$session" q
expect_status "$session" chain 0
wait_for "$session" "resumes it"
# The command is whole on one line of the 120 columns: quoted in its sentence when that fits, else
# alone (how much of the sentence fits beside it depends on how long the binary's path is).
again="$(printed_bin "$bin") play --mode chain --name linker"
screen=$(tmux capture-pane -p -S -200 -t "$session" | sed 's/ *$//')
grep -qxF -- "$again" <<<"$screen" || grep -qF -- "'$again'" <<<"$screen" \
    || { echo "$screen" >&2; fail "the resume command is not whole on its line"; }
wait_gone "$bin play --mode"
echo "variants-in-tmux: ok"
