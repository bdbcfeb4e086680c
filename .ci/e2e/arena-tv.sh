#!/usr/bin/env bash
# The arena's TV at 80×24 (issue 44): a server, an arena opened with `setgame arena --create`,
# two raw-protocol players (ann and bob) and a viewer in tmux running `setgame watch HOST --arena
# NAME`: the standings before the start, the first duel as its spectator under the TV's title,
# the switch to the second duel once the first ends, and the standings again when no duel is under
# way. Every wait is for a result the screen could not show before (a duel's number in the title,
# the duel's deck dealt, the standings' keys), or for the players' output.
set -euo pipefail
bin="${SETGAME:?path to the setgame binary}"
here=$(dirname "$0")
. "$here/../lib.sh"
sessions=(arena-tv-$$)
serve_on_free_port
players=
trap 'if [ -n "$players" ]; then kill "$players" 2>/dev/null || true; fi; stop_served' EXIT

# Long enough for both players and the TV to come before it starts, even on a loaded machine.
"$bin" arena "127.0.0.1:$port" --create tv --minutes 10 --starts-in 10 >"$state/created" \
    || fail "arena --create: $(cat "$state/created")"

python3 "$here/arena_tv_players.py" "$port" tv "$state" 2 >"$state/players.out" 2>"$state/players.err" &
players=$!
helper_says "$players" "$state/players.out" "$state/players.err" joined

tmux new-session -d -s arena-tv-$$ -x 80 -y 24
run_in arena-tv-$$ viv "XDG_STATE_HOME=$state/viv $bin watch 127.0.0.1:$port --arena tv --name viv"
# Before the start: the standings, with both players and the TV's keys.
# (the footer shows from the first frame; the title only once the arena's state came)
wait_for arena-tv-$$ "Arena tv · Classic, rated · starts in"
wait_for arena-tv-$$ "bob"
pane_has arena-tv-$$ "The top board shows once a duel is under way. q quit" "no TV footer before the start"

# The arena starts: the TV follows duel 1 as its spectator, under its title.
wait_for arena-tv-$$ "TV tv · duel 1: ann #1 vs bob #2" 60
wait_for arena-tv-$$ "arena-tv-1 · deck 69" 30
helper_says "$players" "$state/players.out" "$state/players.err" "dealt 1"
touch "$state/go-1"
helper_says "$players" "$state/players.out" "$state/players.err" "over 1"
# bob resigned: the next duel is dealt at once, and the TV switches to it after its linger.
wait_for arena-tv-$$ "TV tv · duel 2: ann #1 vs bob #2" 30
wait_for arena-tv-$$ "arena-tv-2 · deck 69" 30
helper_says "$players" "$state/players.out" "$state/players.err" "dealt 2"
touch "$state/go-2"
helper_says "$players" "$state/players.out" "$state/players.err" "over 2"
# Both paused in the last duel: no board, the standings, ann's two wins counted.
wait_for arena-tv-$$ "1   ann                      4" 30
wait_for arena-tv-$$ "The top board shows once a duel is under way. q quit" 30
touch "$state/done"
wait "$players" || fail "the players failed: $(cat "$state/players.err")"
players=

tmux send-keys -t arena-tv-$$ q
expect_status arena-tv-$$ viv 0
echo "arena-tv: the standings, duel 1 watched, the switch to duel 2 when it ended, the standings again, at 80×24"
