#!/usr/bin/env bash
# An arena as a person sees it at 80×24 (issue 44): a server, an arena opened with
# `setgame arena --create`, a raw-protocol opponent (no `setgame bot --arena` yet) and a person
# in tmux joining it with `setgame arena HOST NAME`: the standings before the start, a pairing and
# the dealt duel, the standings again after it with the duel counted, then a second duel dealt on
# the same arena connection and counted too. Every wait is for a result: a screen that could not
# show it before (a score reached, cards where the standings were) or the opponent's output.
set -euo pipefail
bin="${SETGAME:?path to the setgame binary}"
here=$(dirname "$0")
. "$here/../lib.sh"
sessions=(arena-ann-$$)
serve_on_free_port
opponent=
trap 'if [ -n "$opponent" ]; then kill "$opponent" 2>/dev/null || true; fi; stop_served' EXIT

# Long enough to join and see the standings before it starts, even on a loaded machine.
"$bin" arena "127.0.0.1:$port" --create e2e --minutes 10 --starts-in 15 >"$state/created" \
    || fail "arena --create: $(cat "$state/created")"
grep -q "^Opened e2e: classic rated, 10 minutes" "$state/created" || fail "arena --create said: $(cat "$state/created")"

python3 "$here/arena_opponent.py" "$port" e2e bob ann "$state" 2 >"$state/bob.out" 2>"$state/bob.err" &
opponent=$!
helper_says "$opponent" "$state/bob.out" "$state/bob.err" joined

tmux new-session -d -s arena-ann-$$ -x 80 -y 24
run_in arena-ann-$$ ann "XDG_STATE_HOME=$state/ann $bin arena 127.0.0.1:$port e2e --name ann"
# The standings, before the start: the person's own line, bob's, the title and the keys.
wait_for arena-ann-$$ "You: #"
pane_has arena-ann-$$ "Arena e2e · Classic, rated · starts in" "no starting arena's title"
pane_has arena-ann-$$ "bob" "bob is not in ann's standings"
pane_has arena-ann-$$ "q quit" "the keys were cut at 80×24"

# The arena starts: the two are paired and the duel is dealt on ann's terminal.
wait_for_cards arena-ann-$$ 12 60
touch "$state/go-1"
# bob resigns (paused meanwhile): the duel counts and ann is back at the standings, unpaired.
wait_for arena-ann-$$ "You: #1 of 2, 2 points" 30
pane_has arena-ann-$$ "bob resigned" "the standings do not say how the duel ended"
helper_says "$opponent" "$state/bob.out" "$state/bob.err" "counted 1"

# bob comes back: the second duel is dealt on ann's same arena connection.
touch "$state/resume-2"
wait_for_cards arena-ann-$$ 12 30
touch "$state/go-2"
wait_for arena-ann-$$ "You: #1 of 2, 4 points, 2 wins in a row" 30
helper_says "$opponent" "$state/bob.out" "$state/bob.err" "counted 2"
wait "$opponent" || fail "the opponent failed: $(cat "$state/bob.err")"
opponent=
log_shows "$state/serve.log" "arena e2e: ann and bob play arena-e2e-2" || fail "the server dealt no arena-e2e-2 to ann and bob"

tmux send-keys -t arena-ann-$$ q
expect_status arena-ann-$$ ann 0
echo "arena-in-tmux: standings, two duels dealt and counted on one arena connection, back at the standings, at 80×24"
