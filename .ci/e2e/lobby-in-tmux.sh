#!/usr/bin/env bash
# `setgame join` without a match at 80×24: the lobby screen lists who is here (with rating or
# "new"); ann challenges bob by picking him, bob accepts, and both terminals go on
# into the duel, dealt; `join --match` still goes straight to its match.
set -euo pipefail
bin="${SETGAME:?path to the setgame binary}"
. "$(dirname "$0")/../lib.sh"
sessions=(ann-$$ bob-$$)
serve_on_free_port
tmux new-session -d -s ann-$$ -x 80 -y 24
tmux new-session -d -s bob-$$ -x 80 -y 24
run_in ann-$$ ann "XDG_STATE_HOME=$state/ann $bin join 127.0.0.1:$port --name ann"
wait_for ann-$$ "Who is here: you are ann, Classic"
run_in bob-$$ bob "XDG_STATE_HOME=$state/bob $bin join 127.0.0.1:$port --name bob"
# ann's name reaches bob's screen only from the server's list.
wait_for bob-$$ "1.  ann "
tmux capture-pane -p -t bob-$$ | grep -qE "^  > 1\. +ann +Classic +[0-9]{4}\??$|^  > 1\. +ann +Classic +new$" \
    || { tmux capture-pane -p -t bob-$$ >&2; fail "bob's lobby did not list ann with her variant and rating"; }
for pane in ann-$$ bob-$$; do
    screen=$(tmux capture-pane -p -t $pane)
    grep -q "Live duels" <<<"$screen" || fail "$pane: no live duels section"
    grep -q "q quit" <<<"$screen" || { echo "$screen" >&2; fail "$pane: the keys were cut at 80×24"; }
done
# bob reaches ann's screen without her asking (the server pushes the lobby when it changes);
# she picks him and challenges him with Enter.
wait_for ann-$$ "1.  bob "
tmux send-keys -t ann-$$ 1 Enter
wait_for bob-$$ "challenges you to Classic"
tmux capture-pane -p -t bob-$$ | grep -qE "ann \((new|[0-9]{4}\??)\) challenges you to Classic, [0-9]+ s left: a accept, n decline" \
    || { tmux capture-pane -p -t bob-$$ >&2; fail "bob's prompt did not name ann, her rating and the seconds left"; }
wait_for ann-$$ "Waiting for bob to answer"
tmux send-keys -t bob-$$ a
wait_for_cards ann-$$ 12
wait_for_cards bob-$$ 12
log_shows "$state/serve.log" "challenge: ann and bob play challenge-" || fail "the server made no match of the challenge"
echo "lobby-in-tmux: listed, challenged, accepted; both terminals dealt the duel at 80×24"
