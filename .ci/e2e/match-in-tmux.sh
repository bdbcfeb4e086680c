#!/usr/bin/env bash
# A real match in tmux: two players join a server, a spectator watches, a set picked by keys is
# taken on every screen; a player drops and the same command resumes the seat; quitting leaves
# the terminal as it was.
set -euo pipefail
bin="${SETGAME:?path to the setgame binary}"
. "$(dirname "$0")/../lib.sh"
sessions=(ann-$$ bob-$$ eve-$$)
serve_on_free_port

# ann at 120x40, bob at 80x24, eve watching without colour.
tmux new-session -d -s ann-$$ -x 120 -y 40
tmux new-session -d -s bob-$$ -x 80 -y 24
tmux new-session -d -s eve-$$ -x 100 -y 30
run_in ann-$$ saved "stty -a > $state/stty.before"
expect_status ann-$$ saved 0
export XDG_STATE_HOME=$state
run_in ann-$$ ann "XDG_STATE_HOME=$state/ann $bin join 127.0.0.1:$port --name ann --match duel"
run_in bob-$$ bob "XDG_STATE_HOME=$state/bob $bin join 127.0.0.1:$port --name bob --match duel"
wait_for_cards ann-$$ 12
wait_for_cards bob-$$ 12
run_in eve-$$ eve "NO_COLOR=1 $bin watch 127.0.0.1:$port duel"
wait_for eve-$$ "deck 69"
tmux capture-pane -p -t eve-$$ | grep -q "last table" && fail "a spectator was told about the live table"
wait_for eve-$$ "R╯"               # NO_COLOR: each card names its colour

# Seed 42's only set is cards 9, 16, 14: labels 1, 3, 8. Touching a card claims at once.
pick_cards ann-$$ 1 3 8
wait_for ann-$$ "you took a set"
wait_for bob-$$ "ann took a set"
wait_for eve-$$ "ann took a set"
wait_for eve-$$ "deck 66"
# The table the set left shares nine cards with the live one: while the game is on, nobody hears
# how many sets it held (spectators hear it once the game is over; see FairnessPromiseTests).
tmux capture-pane -p -t eve-$$ | grep -q "last table" && fail "a spectator was told the count of a table that shares cards with the live one"

# bob drops (quits) and comes back with the same command: the seat and the score are his again.
tmux send-keys -t bob-$$ q
wait_for bob-$$ "Leave the match?"   # a player in a duel is asked first
tmux send-keys -t bob-$$ q
expect_status bob-$$ bob 0
wait_for ann-$$ "bob 1500? 0 away"  # an account's rating stands beside its name
run_in bob-$$ bob-again "XDG_STATE_HOME=$state/bob $bin join 127.0.0.1:$port --name bob --match duel"
wait_for_cards bob-$$ 12
wait_for bob-$$ "deck 66"
log_shows "$state/serve.log" "joined with a token" || fail "bob did not resume his seat with its token"

for pair in ann-$$:ann bob-$$:bob-again eve-$$:eve; do
    s=${pair%%:*}
    tmux send-keys -t "$s" q
    if [ "$s" != eve-$$ ]; then   # players are asked first; the spectator leaves at once
        wait_for "$s" "Leave the match?"
        tmux send-keys -t "$s" q
    fi
    expect_status "$s" "${pair#*:}" 0
done
run_in ann-$$ after "stty -a > $state/stty.after"
expect_status ann-$$ after 0
same_files "$state/stty.before" "$state/stty.after" "ann's terminal settings changed"
wait_gone "$bin join 127.0.0.1:$port"
echo "match-in-tmux: ok"
