#!/usr/bin/env bash
# `setgame play` as a newcomer meets it, in tmux: a start box that waits for a key, then 12 cards
# and the bot's name on screen, help pauses the game, a set entered by keys scores, quitting says the game is kept,
# leaves no process behind and the terminal as it was; the banner shows once. Run again, the
# duel comes back with its bot and score; x resigns and leaves, and a finished game is not kept.
# A friend who ran the watch command as the screen shows it sees the game, and sees it again
# once it resumes (on the same port, so the friend's retries find it).
set -euo pipefail
bin="${SETGAME:?path to the setgame binary}"
. "$(dirname "$0")/../lib.sh"
session=setgame-play-$$
state=$(mktemp -d)
tmux kill-session -t "$session" 2>/dev/null || true
tmux new-session -d -s "$session" -x 120 -y 40
trap 'tmux kill-session -t "$session" 2>/dev/null || true; tmux kill-session -t "$session-watch" 2>/dev/null || true; rm -rf "$state"' EXIT
stty_file=/tmp/setgame-stty-$$
run_in "$session" saved "stty -a > $stty_file.before"
expect_status "$session" saved 0
# Started as `swift run` starts it, from the package's folder by a relative path: the commands it
# prints must still run as printed from any other folder.
first="$bin"
[[ "$bin" == */.build/* ]] && first=".build/${bin#*/.build/}"
run_in "$session" play "cd ${bin%%/.build/*} && XDG_STATE_HOME=$state $first play --seed 42 --level easy --name newcomer"
wait_for "$session" "Press any key to start"
wait_for "$session" "can watch with:"
# The command as shown: on the line after its lead, whole.
watch_cmd=$(tmux capture-pane -p -t "$session" | awk '/can watch with:/ { getline; print; exit }' | sed 's/^[│ ]*//; s/[│ ]*$//')
case "$watch_cmd" in
    "$(printed_bin "$bin") watch 127.0.0.1:"*" duel") ;;
    *) fail "the watch command on screen is not whole on its line: '$watch_cmd'" ;;
esac
tmux new-session -d -s "$session-watch" -x 120 -y 40
tmux send-keys -t "$session-watch" "cd / && XDG_STATE_HOME=$state $watch_cmd" Enter
# The friend sees the server's match: still waiting, so the bot has not joined.
wait_for "$session-watch" "waiting for an opponent"
tmux capture-pane -p -t "$session-watch" | grep -q "bot-easy" && fail "the bot joined before the player was ready"
tmux capture-pane -p -t "$session" | grep -q "bot-easy" && fail "the bot joined before the player was ready"
tmux send-keys -t "$session" Space
wait_for "$session" "bot-easy"
wait_for "$session" "deck 69"
wait_for_cards "$session" 12
wait_for "$session-watch" "bot-easy"
# Help pauses the game: the bot steps out, and is back when the help closes.
tmux send-keys -t "$session" '?'
wait_for "$session" "Paused while you read the help"
tmux send-keys -t "$session" Escape
wait_for "$session" "play resumes"
# Seed 42 deals cards 9, 16 and 14, the only set, as labels 1, 3 and 8.
pick_cards "$session" 1 3 8
wait_for "$session" "you took a set"
before=$(tmux capture-pane -p -t "$session" | head -1 | grep -oE 'newcomer \(you\) -?[0-9]+')
tmux send-keys -t "$session" q
wait_for "$session" "Your game is kept"
tmux send-keys -t "$session" q
expect_status "$session" play 0
wait_for "$session" "setgame: your game is kept"
wait_gone "$first play --seed 42"
wait_for "$session-watch" "offline"
run_in "$session" after "stty -a > $stty_file.after"
expect_status "$session" after 0
same_files "$stty_file.before" "$stty_file.after" "the terminal settings changed"
rm -f "$stty_file.before" "$stty_file.after"
# Printed lines wrap at spaces, never inside a command: one too long for its line stands alone.
banner_watch="A friend on this machine can watch with: $watch_cmd"
expected_line="$banner_watch"
[ ${#banner_watch} -gt 120 ] && expected_line="$watch_cmd"
tmux capture-pane -p -S -200 -t "$session" | sed 's/ *$//' | grep -qxF -- "$expected_line" \
    || { tmux capture-pane -p -S -200 -t "$session" >&2; fail "the printed watch command is not whole on a line: '$expected_line'"; }
# The startup message was printed once, before the screen took over; the exit adds only news.
[ "$(tmux capture-pane -p -S -200 -t "$session" | grep -c 'setgame: playing against')" -eq 1 ] \
    || fail "the startup message was printed more than once"

# The same command resumes the duel against the same bot, whatever level is asked now.
tmux send-keys -t "$session" clear Enter
run_in "$session" resume "XDG_STATE_HOME=$state $bin play --level hard --name newcomer"
wait_for "$session" "Your unfinished game against an easy bot is back"
wait_for "$session" "resumed your unfinished game"
tmux send-keys -t "$session" Space
wait_for "$session" "bot-easy is back"
after=$(tmux capture-pane -p -t "$session" | head -1 | grep -oE 'newcomer \(you\) -?[0-9]+')
[ "$after" = "$before" ] || fail "score '$after' after resuming, '$before' before"
# The friend's watch, retrying all along, is back on the resumed game: live again (the top
# line ends with ●, not "offline ✗" or "connecting ◌").
watch_top() { tmux capture-pane -p -t "$session-watch" -S 0 -E 0 | sed 's/ *$//'; }
waited=0
until [[ "$(watch_top)" == *● ]]; do
    sleep 0.2; waited=$((waited + 1))
    [ $waited -lt 150 ] || { tmux capture-pane -p -t "$session-watch" >&2; fail "the spectator never came back to the resumed game"; }
done
seen=$(watch_top | grep -oE 'newcomer -?[0-9]+')
[ "$seen" = "${before/ (you)/}" ] || fail "the spectator sees '$seen' after the resume, the player '$before'"
# x in the leave box resigns and leaves; a finished game is not kept, so the next run is new.
tmux send-keys -t "$session" q
wait_for "$session" "Leave the match?"
tmux send-keys -t "$session" x
expect_status "$session" resume 0
tmux capture-pane -p -t "$session" | grep -q "your game is kept" && fail "a resigned game was said to be kept"
tmux send-keys -t "$session" clear Enter
run_in "$session" fresh "XDG_STATE_HOME=$state $bin play --level hard --name newcomer"
wait_for "$session" "You against a hard bot"
tmux send-keys -t "$session" q
expect_status "$session" fresh 0
echo "play-in-tmux: ok"
