#!/usr/bin/env bash
# Two people, one account: ann and bob join the same match from terminals that share ONE state
# folder (as two terminals of one user do) and both play, neither taking the other's seat. A
# second "ann" is told her seat is in use and leaves it alone when she says no. The waiting
# screen's own suggestion for a friend works as printed.
set -euo pipefail
bin="${SETGAME:?path to the setgame binary}"
. "$(dirname "$0")/../lib.sh"
sessions=(ann-$$ bob-$$ ann2-$$)
serve_on_free_port
for s in "${sessions[@]}"; do tmux new-session -d -s "$s" -x 120 -y 40; done
shared="XDG_STATE_HOME=$state/home"

run_in ann-$$ ann "$shared $bin join 127.0.0.1:$port --name ann --match friday"
wait_for ann-$$ "A friend can join with:"
# Type what ann's waiting screen suggests, in a terminal with the same state folder (the command
# word is how this script started setgame; the rest is taken as printed).
suggested=$(tmux capture-pane -p -t ann-$$ | grep -oE "join 127.0.0.1:$port --match friday --name [a-z]+" | head -1 || true)
[ -n "$suggested" ] || { tmux capture-pane -p -t ann-$$ >&2; fail "the waiting screen suggests no usable command"; }
friend=${suggested##* }
[ "$friend" != ann ] || fail "the suggested command takes ann's own seat"
run_in bob-$$ bob "$shared $bin $suggested"
wait_for_cards ann-$$ 12
wait_for_cards bob-$$ 12
wait_for ann-$$ "ann (you)"
wait_for bob-$$ "$friend (you)"
wait_for ann-$$ "vs  ● $friend"

# Both play: ann takes seed 42's set (labels 1, 3, 8); then the friend deals three more.
pick_cards ann-$$ 1 3 8
wait_for ann-$$ "you took a set"
wait_for bob-$$ "ann took a set"
wait_for bob-$$ "deck 66"
tmux send-keys -t bob-$$ d
wait_for bob-$$ "deck 63"
wait_for ann-$$ "deck 63"

# A second "ann" from the same account finds the kept token: she is asked, not seated.
run_in ann2-$$ ann2 "$shared $bin join 127.0.0.1:$port --name ann --match friday"
wait_for ann2-$$ "Your seat is in use"
wait_for ann2-$$ "ann is still connected"
tmux send-keys -t ann2-$$ n
expect_status ann2-$$ ann2 0
wait_for ann2-$$ "another --name"
tmux capture-pane -p -t ann-$$ | grep -q "resumed from another connection" && fail "ann was thrown out"
tmux capture-pane -p -t ann-$$ | grep -q "ann (you)" || fail "ann lost her seat"
tmux capture-pane -p -t bob-$$ | grep -q "$friend (you)" || fail "$friend lost the seat"

for player in ann bob; do
    tmux send-keys -t "$player-$$" q
    wait_for "$player-$$" "Leave the match?"
    tmux send-keys -t "$player-$$" q
    expect_status "$player-$$" "$player" 0
done
grep -q "ann" "$state/home/setgame/seats" && grep -q "$friend" "$state/home/setgame/seats" \
    || fail "each player's token is kept under their own name"
echo "shared-state: ok"
