#!/usr/bin/env bash
# `setgame play` keeps the game: play solo, take a set, quit, run the same command again and the
# same score, deck count and table are back, with the screen saying so. `--new` then starts
# afresh. Also: `play` without a terminal says so before it starts anything, and the same kept
# game cannot be opened twice.
set -euo pipefail
bin="${SETGAME:?path to the setgame binary}"
. "$(dirname "$0")/../lib.sh"
session=setgame-resume-$$
state=$(mktemp -d)
tmux kill-session -t "$session" 2>/dev/null || true
tmux new-session -d -s "$session" -x 120 -y 40
trap 'tmux kill-session -t "$session" 2>/dev/null || true; tmux kill-session -t "$session-2" 2>/dev/null || true; rm -rf "$state"' EXIT

# No terminal: refused at once, and no journal folder appears.
set +e
out=$(XDG_STATE_HOME=$state "$bin" play --solo </dev/null 2>&1)
status=$?
set -e
[ $status -eq 1 ] || fail "play without a terminal must exit 1, not $status"
echo "$out" | grep -q "needs a terminal" || fail "play without a terminal did not say so: $out"
[ ! -e "$state/setgame/play" ] || fail "play without a terminal started a server"

runs=0
run() {
    runs=$((runs + 1))
    tmux send-keys -t "$session" clear Enter
    run_in "$session" "run$runs" "XDG_STATE_HOME=$state $bin play --solo --name ann $*"
}
table() { tmux capture-pane -p -t "$session" | sed -n '3,38p'; }
score() { tmux capture-pane -p -t "$session" | head -1 | grep -oE 'ann -?[0-9]+'; }
deck() { tmux capture-pane -p -t "$session" | head -1 | grep -oE 'deck [0-9]+'; }
quit() {
    tmux send-keys -t "$session" q
    expect_status "$session" "run$runs" 0
}

run --seed 42
wait_for_cards "$session" 12
tmux send-keys -t "$session" d
wait_for_cards "$session" 15
wait_for "$session" "deck 66"
# Seed 42 deals cards 9, 16 and 14, a set, as labels 1, 3 and 8.
pick_cards "$session" 1 3 8
wait_for "$session" "you took a set"
# Settled: the set stays shown on the table of 15 until a touch, its three cards marked.
wait_for "$session" "A set! Touch any card to go on"
wait_for_cards "$session" 15
before_table=$(table); before_score=$(score); before_deck=$(deck)
[ "$before_deck" = "deck 66" ] || fail "expected deck 66, saw '$before_deck'"
quit   # solo: no question, the game is kept
wait_for "$session" "your game is kept"

# Play takes its last port again when it can (a friend's watch retries it); here another program
# holds it meanwhile, so the game resumes on another.
port_file="$state/setgame/play/solo-ann/port"
last_port=$(cat "$port_file")
python3 -c '
import socket, sys, time
s = socket.socket(); s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
s.bind(("127.0.0.1", int(sys.argv[1]))); s.listen()
open(sys.argv[2], "w").close(); time.sleep(120)' "$last_port" "$state/holding" &
holder=$!
waited=0; until [ -e "$state/holding" ]; do sleep 0.1; waited=$((waited + 1)); [ $waited -lt 100 ] || fail "could not hold port $last_port"; done
run
wait_for "$session" "resumed your unfinished game"
kill $holder
[ "$(cat "$port_file")" != "$last_port" ] || fail "play claims port $last_port, which another program held"
# The same game in a second terminal is refused: two processes must not write one journal.
second=$session-2
tmux new-session -d -s "$second" -x 100 -y 20
run_in "$second" twice "XDG_STATE_HOME=$state $bin play --solo --name ann"
expect_status "$second" twice 1
wait_for "$second" "open in another terminal"
tmux kill-session -t "$second"
wait_for_cards "$session" "$(echo "$before_table" | LC_ALL=C.UTF-8 grep -oE '(╭|┏|╔)[0-9a-zA-Z]' | wc -l)"
# The resumed cards fly in: once they have landed, the table is the one that was kept.
waited=0
until [ "$(table)" = "$before_table" ]; do
    sleep 0.2; waited=$((waited + 1))
    [ $waited -lt 150 ] || { diff <(echo "$before_table") <(table) >&2 || true; fail "the table changed"; }
done
[ "$(score)" = "$before_score" ] || fail "score: '$(score)' after resuming, '$before_score' before"
[ "$(deck)" = "$before_deck" ] || fail "deck: '$(deck)' after resuming, '$before_deck' before"
quit

run --new
wait_for_cards "$session" 12
wait_for "$session" "deck 69"
tmux capture-pane -p -t "$session" | head -1 | grep -q "ann 0 " || fail "--new did not start afresh"
quit
echo "play-resume: ok"
