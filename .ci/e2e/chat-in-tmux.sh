#!/usr/bin/env bash
# Chat in a real duel at 80x24 (issue 27): a player's line reaches both players and the
# spectator, a spectator's line reaches spectators only while the game is on, and every screen
# keeps all twelve cards whole while lines come and go.
set -euo pipefail
bin="${SETGAME:?path to the setgame binary}"
. "$(dirname "$0")/../lib.sh"
sessions=(ann-$$ bob-$$ eve-$$)
serve_on_free_port

for s in "${sessions[@]}"; do tmux new-session -d -s "$s" -x 80 -y 24; done
run_in ann-$$ ann "XDG_STATE_HOME=$state/ann $bin join 127.0.0.1:$port --name ann --match duel"
run_in bob-$$ bob "XDG_STATE_HOME=$state/bob $bin join 127.0.0.1:$port --name bob --match duel"
wait_for_cards ann-$$ 12
wait_for_cards bob-$$ 12
run_in eve-$$ eve "$bin watch 127.0.0.1:$port duel"
wait_for eve-$$ "deck 69"

# say SESSION TEXT: / opens the chat line on the button row, Enter says it.
say() {
    tmux send-keys -t "$1" /
    wait_for "$1" "say to "
    tmux send-keys -t "$1" -l "$2"
    tmux send-keys -t "$1" Enter
}

say ann-$$ "good luck bob"
for s in ann-$$ bob-$$ eve-$$; do wait_for "$s" "ann: good luck bob"; done
say bob-$$ "thanks, you too"
for s in ann-$$ bob-$$ eve-$$; do wait_for "$s" "bob: thanks, you too"; done

# A spectator's line: eve sees it said, so the server has sent it wherever it went.
say eve-$$ "ann is fast"
wait_for eve-$$ ") ann is fast"   # a spectator's line, marked (NAME)
for s in ann-$$ bob-$$; do
    tmux capture-pane -p -t "$s" | grep -qF "ann is fast" && fail "a player saw the spectators' room mid-game"
done

# Readable: the twelve cards whole on every screen, the buttons still there beside the chat.
for s in ann-$$ bob-$$; do wait_for_cards "$s" 12; wait_for "$s" "Set! s"; done
# A spectator's cards carry no labels: count their bottom corners (the deck pile adds one).
corners=$(tmux capture-pane -p -t eve-$$ | grep -o '╰' | wc -l)
[ "$corners" -ge 12 ] || { tmux capture-pane -p -t eve-$$ >&2; fail "eve sees $corners cards' corners, not twelve"; }

# The game goes on as before: seed 42's set is labels 1, 3, 8.
pick_cards ann-$$ 1 3 8
wait_for bob-$$ "ann took a set"
say bob-$$ "nice one"
wait_for ann-$$ "bob: nice one"
wait_for_cards ann-$$ 12

# Issue 36: at 80x24 only the newest line shows, for 10 s; ↑ in the open chat shows the last
# lines over the table, all at once, and Esc twice puts them and the input away.
tmux send-keys -t ann-$$ /
wait_for ann-$$ "↑ last lines"
tmux send-keys -t ann-$$ Up
wait_for ann-$$ "chat, newest last"
history=$(tmux capture-pane -p -t ann-$$)
for line in "ann: good luck bob" "bob: thanks, you too" "bob: nice one"; do
    printf '%s\n' "$history" | grep -qF "$line" || { printf '%s\n' "$history" >&2; fail "the open chat lacks '$line'"; }
done
tmux send-keys -t ann-$$ Escape
wait_for ann-$$ "↑ last lines"   # the lines hidden, the input still open
tmux send-keys -t ann-$$ Escape
wait_for ann-$$ "Set! s"
wait_for_cards ann-$$ 12

# Characters that terminals draw wider than one count per character (issue 32 item 13): a skin
# tone beside its emoji, a spacing vowel sign, and format characters (U+0600, the soft hyphen)
# that tmux draws a column each. The newest line folds beside the buttons, cut to the screen's
# width as tmux draws it: nothing wraps, no screen scrolls, the header stays on the top row.
on_top() { tmux capture-pane -p -t "$1" | head -1 | grep -qF "(you)"; }
for s in ann-$$ bob-$$; do on_top "$s" || { tmux capture-pane -p -t "$s" >&2; fail "no header on $s's top row"; }; done
# As UTF-8 bytes, which printf writes whatever the locale: U+1F44D U+1F3FD, U+0915 U+093E, U+0600 U+00AD.
wide="wide $(printf '\xf0\x9f\x91\x8d\xf0\x9f\x8f\xbd%.0s' {1..30})$(printf '\xe0\xa4\x95\xe0\xa4\xbe%.0s' {1..20})$(printf '\xd8\x80\xc2\xad%.0s' {1..30}) end"
say bob-$$ "$wide"
wait_for ann-$$ "bob: wide "
for s in ann-$$ bob-$$; do
    wait_for_cards "$s" 12
    wait_for "$s" "Set! s"
    on_top "$s" || { tmux capture-pane -p -t "$s" >&2; fail "a wide line scrolled $s's screen"; }
done

grep -q '"type":"chat"' "$state"/data/duel.jsonl || fail "the chat lines were not journaled with the match"
"$bin" replay "$state/data/duel.jsonl" > "$state/replay.txt" || fail "replay failed"
grep -qF "ann (players): good luck bob" "$state/replay.txt" || { cat "$state/replay.txt" >&2; fail "replay did not show the chat"; }
grep -qF "(spectators): ann is fast" "$state/replay.txt" || { cat "$state/replay.txt" >&2; fail "replay did not show the spectators' room"; }
# The cast keeps the chat, and its header says when the match began on the wall clock.
"$bin" replay "$state/data/duel.jsonl" --cast "$state/duel.cast" > /dev/null || fail "replay --cast failed"
grep -qF "nice one" "$state/duel.cast" || fail "the cast lacks the chat"
stamp=$(head -1 "$state/duel.cast" | grep -o '"timestamp":[0-9]*' | cut -d: -f2)
[ "$stamp" -gt 1700000000 ] || fail "the cast's header timestamp is $stamp, not the wall clock"
echo "chat-in-tmux: ok"
