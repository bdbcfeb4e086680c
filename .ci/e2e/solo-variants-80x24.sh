#!/usr/bin/env bash
# A solo game of each variant played to its end at 80×24, as a newcomer meets it (issue 23's
# done-when): the variant's own words at the start, in Set-Chain a real set refused for not using
# exactly one chain card, a deal refused (no room for three more, or the deck empty; at 80×24 a
# deal is refused past 30 cards, the most 9×5 cards hold), then hint and pick until the game-over box, which shows the
# personal records. Every step waits for what the
# screen shows next, never for time.
set -euo pipefail
bin="${SETGAME:?path to the setgame binary}"
. "$(dirname "$0")/../lib.sh"
session=setgame-solo-variants-$$
state=$(mktemp -d /tmp/setgame-solo-variants-XXXXXX)
tmux kill-session -t "$session" 2>/dev/null || true
tmux new-session -d -s "$session" -x 80 -y 24
trap 'tmux kill-session -t "$session" 2>/dev/null || true; rm -rf "$state"' EXIT
screen() { tmux capture-pane -p -t "$session"; }
# The labels of the cards a hint marks: a ? in the top border's right corner (╭7────?╮, or
# heavy, ┏13━?┓; the chain's first card carries its caption there, ╭79 chain ─?╮ or, behind a
# one-key label, ╭0─ chain ─?╮), or, where the
# chain has no strip, in its line of names ("chain: [28]? 2 open …").
hinted() {
    screen | LC_ALL=C.UTF-8 grep -oE '(╭|┏)[0-9a-zA-Z]+(─|━)*( chain )?(─|━)*\?(╮|┓)|\[[0-9a-zA-Z]+\]\?' \
        | LC_ALL=C.UTF-8 sed -E 's/^(╭|┏|\[)([0-9a-zA-Z]+).*/\2/' || true
}
# How many cards show picked (a heavy top border with the label, ┏7━).
selected() { screen | LC_ALL=C.UTF-8 grep -oE '┏[0-9a-zA-Z]' | wc -l; }
# until_screen LIMIT TEST...: polls until the command TEST succeeds, or fails with the screen.
until_screen() {
    local limit=$1 n=0
    shift
    until "$@"; do
        sleep 0.2
        n=$((n + 1))
        [ "$n" -lt $((limit * 5)) ] || { screen >&2; fail "waited ${limit}s for: $*"; }
    done
}
shows() { screen | grep -qF -- "$1"; }
# The header's deck count ("deck 63", "deck empty"): what a deal changes.
deck() { screen | head -1 | grep -oE 'deck ([0-9]+|empty)' || true; }
over() { shows "Game over"; }

# put_away: a set taken stays on show until the next touch; touching one of its own cards puts it
# away without picking anything, so the hint that follows marks cards nothing else marks.
put_away() {
    shows "! Touch any card to go on" && [ -n "$last_pick" ] || return 0
    # shellcheck disable=SC2086
    set -- $last_pick
    tmux send-keys -t "$session" "$1"
    until_screen 30 eval '! shows "! Touch any card to go on"'
}

# hint_and_pick COUNT: asks for a hint and picks the cards it marks; returns 1 when the hint
# found none (the caller deals), 2 when the game is over.
hint_and_pick() {
    local count=$1 labels
    over && return 2
    put_away
    tmux send-keys -t "$session" c
    until_screen 30 eval '[ "$(hinted | wc -l)" -eq '"$count"' ] || shows "There is no set" || over'
    over && return 2
    labels=$(hinted)
    [ -n "$labels" ] && [ "$(wc -l <<<"$labels")" -eq "$count" ] || return 1
    # shellcheck disable=SC2086
    pick_cards "$session" $labels
    # Taken, it stays on show ("A set! Touch any card to go on") until the next touch.
    until_screen 30 eval 'shows "! Touch any card to go on" || over'
    last_pick=$labels
    return 0
}

# deal_until_refused: d (free when no set is there, −15 when one is) until a deal is refused:
# when the table at 80×24 could not show three more cards (the client refuses without asking),
# or, where even all 81 fit at 5×3, when the deck is empty.
refused() { shows "no room for 3 more cards" || shows "The deck is empty: there are no more cards to deal."; }
deal_until_refused() {
    local before n=0
    until refused; do
        before=$(deck)
        tmux send-keys -t "$session" d
        until_screen 30 eval '[ "$(deck)" != "'"$before"'" ] || refused'
        n=$((n + 1))
        [ "$n" -lt 30 ] || fail "dealing was never refused"
    done
    if shows "The deck is empty"; then
        tmux send-keys -t "$session" Escape
        until_screen 30 eval '! shows "The deck is empty"'
    fi
}

play_to_end() {
    local count=$1 rounds=0 status
    while ! over; do
        status=0
        hint_and_pick "$count" || status=$?
        if [ "$status" -eq 1 ]; then
            local before
            before=$(deck)
            tmux send-keys -t "$session" d
            until_screen 30 eval '[ "$(deck)" != "'"$before"'" ] || over'
        fi
        rounds=$((rounds + 1))
        [ "$rounds" -lt 120 ] || fail "the game did not end"
    done
}

# One solo game per variant: `start` is what its first screen says, `help` its rule in the help box.
for variant in ${VARIANTS:-classic junior chain ultra}; do
    last_pick=""
    case $variant in
        classic) count=3; start="each feature all alike or all different"; help="" ;;
        junior) count=3; start="Pick three cards that form a set"; help="Junior: only the 27 solid cards" ;;
        chain) count=3; start="Pick three cards that form a set"; help="Set-Chain: after the first set" ;;
        ultra) count=4; start="Pick four cards that form an ultra"; help="UltraSet: pick four cards" ;;
    esac
    run_in "$session" "$variant" "XDG_STATE_HOME=$state $bin play --solo --mode $variant --seed 42 --name solo-$variant --no-animation"
    wait_for "$session" "$start"
    if [ -n "$help" ]; then
        tmux send-keys -t "$session" '?'
        wait_for "$session" "$help"
        tmux send-keys -t "$session" Escape
        until_screen 30 eval '! shows "$help"'
    fi
    if [ "$variant" = chain ]; then
        # The first set goes to the chain; its three cards keep their labels there. Picked again
        # they are a real set, but one with three chain cards.
        hint_and_pick 3
        put_away
        wait_for "$session" " chain "
        # shellcheck disable=SC2086
        set -- $last_pick
        pick_cards "$session" "$@"
        wait_for "$session" "a set here uses exactly one chain card"
        # The refused trio stays picked until the next touch: touch one of its cards twice, so
        # nothing is picked and the hint's marks show on the chain's cards too.
        tmux send-keys -t "$session" "$1"
        until_screen 30 eval '[ "$(selected)" -eq 1 ]'
        tmux send-keys -t "$session" "$1"
        until_screen 30 eval '[ "$(selected)" -eq 0 ]'
    fi
    deal_until_refused
    play_to_end "$count"
    wait_for "$session" "best score"
    wait_for "$session" "missed before dealing"
    tmux send-keys -t "$session" q
    expect_status "$session" "$variant" 0 60
    echo "solo-variants-80x24: $variant played to its end"
done
echo "solo-variants-80x24: ok"
