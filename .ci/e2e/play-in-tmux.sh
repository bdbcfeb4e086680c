#!/usr/bin/env bash
# `setgame play` as a newcomer meets it, in tmux: 12 cards and the bot's name on screen, a set
# entered by keys scores, quitting leaves no process behind and the terminal as it was.
set -euo pipefail
bin="${SETGAME:?path to the setgame binary}"
. "$(dirname "$0")/../lib.sh"
session=setgame-play-$$
tmux kill-session -t "$session" 2>/dev/null || true
tmux new-session -d -s "$session" -x 120 -y 40
trap 'tmux kill-session -t "$session" 2>/dev/null || true' EXIT
stty_file=/tmp/setgame-stty-$$
run_in "$session" saved "stty -a > $stty_file.before"
expect_status "$session" saved 0
run_in "$session" play "$bin play --seed 42 --level easy --name newcomer"
wait_for "$session" "bot-easy"
wait_for "$session" "deck 69"
wait_for_cards "$session" 12
# Seed 42 deals cards 9, 16 and 14, the only set, as labels 1, 3 and 8.
for key in 1 3 8; do tmux send-keys -t "$session" "$key"; sleep 0.2; done
wait_for "$session" "you took a set"
tmux send-keys -t "$session" q
sleep 0.3
tmux send-keys -t "$session" q
expect_status "$session" play 0
wait_gone "$bin play --seed 42"
run_in "$session" after "stty -a > $stty_file.after"
expect_status "$session" after 0
same_files "$stty_file.before" "$stty_file.after" "the terminal settings changed"
rm -f "$stty_file.before" "$stty_file.after"
echo "play-in-tmux: ok"
