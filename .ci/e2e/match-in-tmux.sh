#!/usr/bin/env bash
# A real match in tmux: two players join a server, a spectator watches, a set picked by keys is
# taken on every screen; a player drops and the same command resumes the seat; quitting leaves
# the terminal as it was.
set -euo pipefail
bin="${SETGAME:?path to the setgame binary}"
. "$(dirname "$0")/../lib.sh"
port=$(free_port)
state=$(mktemp -d)
"$bin" serve --port "$port" --seed 42 --data "$state/data" 2>"$state/serve.log" &
server=$!
sessions=(ann-$$ bob-$$ eve-$$)
cleanup() {
    for s in "${sessions[@]}"; do tmux kill-session -t "$s" 2>/dev/null || true; done
    kill $server 2>/dev/null || true
}
trap cleanup EXIT
for _ in $(seq 50); do grep -q listening "$state/serve.log" && break; sleep 0.1; done

# ann at 120x40, bob at 80x24, eve watching without colour.
tmux new-session -d -s ann-$$ -x 120 -y 40
tmux new-session -d -s bob-$$ -x 80 -y 24
tmux new-session -d -s eve-$$ -x 100 -y 30
tmux send-keys -t ann-$$ "stty -a > $state/stty.before; echo SAVED" Enter
wait_for ann-$$ SAVED
export XDG_STATE_HOME=$state
tmux send-keys -t ann-$$ "XDG_STATE_HOME=$state/ann $bin join 127.0.0.1:$port --name ann --match duel; echo EXIT=\$?" Enter
tmux send-keys -t bob-$$ "XDG_STATE_HOME=$state/bob $bin join 127.0.0.1:$port --name bob --match duel; echo EXIT=\$?" Enter
wait_for_cards ann-$$ 12
wait_for_cards bob-$$ 12
tmux send-keys -t eve-$$ "NO_COLOR=1 $bin watch 127.0.0.1:$port duel; echo EXIT=\$?" Enter
wait_for eve-$$ "deck 69"
tmux capture-pane -p -t eve-$$ | grep -q "last table" && fail "a spectator was told about the live table"
wait_for eve-$$ "R╯"               # NO_COLOR: each card names its colour

# Seed 42's only set is cards 9, 16, 14: labels 1, 3, 8. Touching a card claims at once.
for key in 1 3 8; do tmux send-keys -t ann-$$ "$key"; sleep 0.2; done
wait_for ann-$$ "you took a set"
wait_for bob-$$ "ann took a set"
wait_for eve-$$ "ann took a set"
wait_for eve-$$ "deck 66"
wait_for eve-$$ "last table: 1 set"   # spectators alone hear how many sets a table held, once it is gone

# bob drops (quits) and comes back with the same command: the seat and the score are his again.
tmux send-keys -t bob-$$ q
sleep 0.3
tmux send-keys -t bob-$$ q
wait_for bob-$$ "EXIT=0"
wait_for ann-$$ "bob"
tmux send-keys -t bob-$$ "XDG_STATE_HOME=$state/bob $bin join 127.0.0.1:$port --name bob --match duel; echo EXIT=\$?" Enter
wait_for_cards bob-$$ 12
wait_for bob-$$ "deck 66"
grep -q "joined with a token" "$state/serve.log" || fail "bob did not resume his seat with its token"

for s in ann-$$ bob-$$ eve-$$; do
    tmux send-keys -t "$s" q
    sleep 0.3
    tmux send-keys -t "$s" q
    wait_for "$s" "EXIT=0"
done
tmux send-keys -t ann-$$ "stty -a > $state/stty.after; echo COMPARED" Enter
wait_for ann-$$ COMPARED
cmp -s "$state/stty.before" "$state/stty.after" || fail "ann's terminal settings changed"
wait_gone "$bin join 127.0.0.1:$port"
echo "match-in-tmux: ok"
