#!/usr/bin/env bash
# `setgame play` in the terminal most people open, 80×24: drawn symbols on 12 cards, the legend on
# `?`, a set taken by keys with its notice whole, a deal, the small-terminal screen at 40×12, and
# the `cards` gallery. Leaves the final 80×24 screen in $SCREEN_OUT when that is set.
set -euo pipefail
bin="${SETGAME:?path to the setgame binary}"
. "$(dirname "$0")/../lib.sh"
session=setgame-80x24-$$
state=$(mktemp -d)
tmux kill-session -t "$session" 2>/dev/null || true
tmux new-session -d -s "$session" -x 80 -y 24
trap 'tmux kill-session -t "$session" 2>/dev/null || true; rm -rf "$state"' EXIT
screen() { tmux capture-pane -p -t "$session"; }
# wait_still: until the table (below the status rows, whose clocks tick) stops moving.
wait_still() {
    local last="" now n=0
    while :; do
        now=$(screen | tail -n +3)
        [ "$now" = "$last" ] && return 0
        last=$now; n=$((n + 1)); [ $n -lt 100 ] || fail "the table never settled"
        sleep 0.3
    done
}

run_in "$session" play "XDG_STATE_HOME=$state $bin play --seed 42 --level easy --name newcomer"
wait_for "$session" "Press any key to start"   # the duel begins when the player is ready
# At 80 columns the friend's watch command still stands whole on its line, to be copied as it is.
watch_cmd=$(screen | awk '/can watch with:/ { getline; print; exit }' | sed 's/^[│ ]*//; s/[│ ]*$//')
case "$watch_cmd" in
    "$(printed_bin "$bin") watch 127.0.0.1:"*" duel") ;;
    *) screen >&2; fail "the watch command at 80x24 is not whole on its line: '$watch_cmd'" ;;
esac
tmux send-keys -t "$session" Space
wait_for "$session" "bot-easy"
wait_for_cards "$session" 12
# 13×7 cards draw three 3×5-cell symbols: a solid oval's top is ▟█▙ and its sides ███.
screen | grep -q '▟█▙' || { screen >&2; fail "no drawn oval at 80x24"; }
blocks=$(screen | LC_ALL=C.UTF-8 grep -o '[▗▖▄▝▐▞▟▘▚▌▙▀▜▛█]' | wc -l)
[ "$blocks" -ge 150 ] || { screen >&2; fail "only $blocks cells of drawn ink"; }

tmux send-keys -t "$session" '?'
wait_for "$session" "squiggle"
for word in diamond oval solid striped open "R red" "G green" "P purple"; do
    screen | grep -qF "$word" || { screen >&2; fail "the legend lacks '$word'"; }
done
tmux send-keys -t "$session" Escape
wait_gone_text() { local n=0; while screen | grep -qF "$1"; do sleep 0.2; n=$((n + 1)); [ $n -lt 50 ] || fail "'$1' stayed"; done; }
wait_gone_text "squiggle"

# Seed 42 deals cards 9, 16 and 14, the only set, as labels 1, 3 and 8.
pick_cards "$session" 1 3 8
wait_for "$session" "you took a set: +"
wait_for "$session" "deck 66"
wait_for_cards "$session" 12
tmux send-keys -t "$session" d
wait_for "$session" "three more cards"
wait_for_cards "$session" 15
wait_still
if [ -n "${SCREEN_OUT:-}" ]; then screen > "$SCREEN_OUT"; fi

tmux resize-window -t "$session" -x 40 -y 12
wait_for "$session" "s Set d Deal p Pass ? Help q Quit"
tmux resize-window -t "$session" -x 80 -y 24
wait_for_cards "$session" 15
tmux send-keys -t "$session" q
wait_for "$session" "Leave the match?"
tmux send-keys -t "$session" q
expect_status "$session" play 0
wait_gone "$bin play --seed 42 --level easy --name newcomer"

gallery=$("$bin" cards --size 80x24)
[ "$(grep -o '╭' <<<"$gallery" | wc -l)" -eq 81 ] || fail "cards --size 80x24 did not draw 81 cards"
# From a here-string, not a pipe: grep -q stops at its match, and under pipefail the writer's SIGPIPE failed the check.
grep -q 'cards of 13×7 cells' <<<"$gallery" || fail "cards names the card size"
set +e
"$bin" cards --size 30x7 2>/dev/null; [ $? -eq 1 ] || fail "a terminal too small for a table exits 1"
"$bin" cards --size 80 2>/dev/null; [ $? -eq 64 ] || fail "a bad --size exits 64"
set -e
echo "play-80x24: ok"
