#!/usr/bin/env bash
# The ssh door across nodes (issue 35), through a real OpenSSH: two nodes sharing a throwaway
# PostgreSQL, a on 127.0.0.1 with the door socket sshd's door uses, b on 127.0.0.2. A key asks
# the door for a named duel that rendezvous hashing places on b: a writes a handoff ticket and
# redirects the door, which follows it to b, where the key is seated under its door account and
# counted at its ssh client's address (the ticket's row says it, not the door host's). A second
# player joins on b over TCP; both are dealt twelve cards at 80×24; the key takes a set; the other
# resigns; the game is rated, and the key's profile, asked on a, shows it under the key's account.
# From a's menu the key joins an arena whose room lives on b, redirected there with a ticket.
# An attacker on b cannot sit as the key: a made-up ticket, the key's own ticket replayed, the
# key's door name without a ticket or as the account, a door line over TCP are each refused.
# Needs root (sshd, useradd), OpenSSH and PostgreSQL (CI installs them).
set -euo pipefail
bin="${SETGAME:?path to the setgame binary}"
. "$(dirname "$0")/../lib.sh"
root="$(cd "$(dirname "$0")/../.." && pwd)"
prefix=setgame-door-nodes-$$
[ "$(id -u)" = 0 ] || { echo "the door checks need root for sshd and its users; skipped"; exit 0; }
wire() { python3 "$root/.ci/e2e/door_nodes.py" "$@"; }

# The store the two nodes share; door-lib's cleanup stops it, and node b, on exit.
read -r pg_url pg_dir < <("$root/.ci/postgres.sh" start)
b_pid=""
door_extra_cleanup() {
    [ -n "$b_pid" ] && kill "$b_pid" 2>/dev/null || true
    "$root/.ci/postgres.sh" stop "$pg_dir"
}
# Node a is door-lib's server: with the door socket, on 127.0.0.1.
door_serve_options="--store $pg_url --node a --advertise 127.0.0.1:0 --seed 42"
. "$root/.ci/door-lib.bash"
psql_at() { psql "$pg_url" -Atc "$1"; }

"$bin" serve --host 127.0.0.2 --port 0 --data "$work/b" --seed 42 --store "$pg_url" --node b --advertise 127.0.0.2:0 \
    --seat-wait-ms 120000 >"$work/b.log" 2>&1 &
b_pid=$!
for _ in $(seq 150); do grep -q '^setgame serving on 127.0.0.2:' "$work/b.log" && break; sleep 0.2; done
b_port=$(sed -n 's/^setgame serving on 127\.0\.0\.2:\([0-9]*\)$/\1/p' "$work/b.log")
[ -n "$b_port" ] || { cat "$work/b.log" >&2; fail "node b did not start"; }
b_address=127.0.0.2:$b_port
[ "$(psql_at "SELECT string_agg(name, ',' ORDER BY name) FROM nodes")" = "a,b" ] || fail "the store does not list nodes a and b"

# The attacker below has read the key's ticket off the wire or a leaked log: the throwaway store
# keeps a copy of every ticket written, as such a reader would (no setgame code reads it).
psql "$pg_url" -qc "CREATE TABLE leaked (ticket TEXT, match TEXT, address TEXT);
    CREATE FUNCTION leak() RETURNS trigger LANGUAGE plpgsql AS \$\$
        BEGIN INSERT INTO leaked VALUES (NEW.ticket, NEW.match, NEW.address); RETURN NEW; END \$\$;
    CREATE TRIGGER leak AFTER INSERT ON handoffs FOR EACH ROW EXECUTE FUNCTION leak();" >/dev/null

# 1. The key asks node a's door for a duel that lives on b.
match=$(wire name b tue a b)
ssh-keygen -q -t ed25519 -N '' -C '' -f "$work/kay"
s_kay=$(pane kay 80 24); s_zed=$(pane zed 80 24)
run_in "$s_kay" kay "$(door kay "join $match" "-b 127.0.0.5")"
for _ in $(seq 300); do grep -q "came through the door on another node from 127\.0\.0\.5 as key-" "$work/b.log" && break; sleep 0.2; done
line=$(grep "came through the door on another node from 127\.0\.0\.5 as key-" "$work/b.log" | head -1) \
    || { tail -20 "$work/b.log" >&2; fail "node b did not seat the key, counted at its ssh address 127.0.0.5"; }
kay_name=${line##* as }
[ "$(psql_at "SELECT node FROM match_homes WHERE match = '$match'")" = b ] || fail "$match does not live on b"
[ "$(psql_at "SELECT address FROM leaked WHERE match = '$match'")" = 127.0.0.5 ] || fail "a's ticket for $match did not keep the key's ssh address"
log_shows "$work/server.log" "sent to $b_address for $match" || fail "node a did not redirect the door to b"
echo "door-nodes: the key ($kay_name) asked a for $match and was seated on b, counted at 127.0.0.5"

# 2. A second player on b over TCP; both dealt twelve cards at 80×24.
run_in "$s_zed" zed "XDG_STATE_HOME=$work/zed $bin join $b_address --name zed --match $match"
wait_for_cards "$s_kay" 12 60
wait_for_cards "$s_zed" 12 60
echo "door-nodes: both players were dealt twelve cards at 80x24"

# 3. The key takes a set (found on the table a spectator on b is shown).
read -r -a keys <<<"$(wire set-keys "$b_address" "$match")"
if [ "${keys[*]}" = deal ]; then
    # The twelve held no set: the key deals three more, and a set is found among fifteen.
    tmux send-keys -t "$s_kay" d
    wait_for_cards "$s_kay" 15 60
    read -r -a keys <<<"$(wire set-keys "$b_address" "$match")"
fi
pick_cards "$s_kay" "${keys[@]}"
wait_for "$s_kay" "you took a set" 30
wait_for "$s_zed" "$kay_name took a set" 30
echo "door-nodes: the key took a set (${keys[*]}) through the door on b"

# 4. An attacker on b cannot sit as the key, in a match the key plays: every way the wire allows.
ticket=$(psql_at "SELECT ticket FROM leaked WHERE match = '$match'")
[ -n "$ticket" ] || fail "no ticket was written for $match"
wire attack "$b_address" "$match" "$kay_name" "$ticket"
grep -q "$ticket" "$work/server.log" "$work/b.log" && fail "a node logged the ticket"
echo "door-nodes: an attacker on b could not sit as $kay_name"

# 5. zed resigns; the key's profile, asked on a, shows the rated game under its door account.
tmux send-keys -t "$s_zed" q
wait_for "$s_zed" "resign and leave" 30
tmux send-keys -t "$s_zed" x
expect_status "$s_zed" zed 0 30
wait_for "$s_kay" "zed resigned" 30
profile=$("$bin" profile "127.0.0.1:$tcp_port" "$kay_name") || fail "profile $kay_name on a: $profile"
echo "$profile" | grep -q "^$kay_name: 1 game, 1 win, 0 losses, 0 draws" || fail "the key's profile on a: $profile"
echo "$profile" | grep -qE "^  classic +1[0-9]{3}\?? +RD [0-9]+, 1 rated game" || fail "the key's game was not rated: $profile"
own=$(ssh -T $ssh_opts -i "$work/kay" -b 127.0.0.5 set@127.0.0.1 profile </dev/null 2>&1) || fail "ssh … profile: $own"
echo "$own" | grep -q "^$kay_name: 1 game, 1 win" || fail "the key's own profile through the door: $own"
echo "door-nodes: the rated game is in $kay_name's profile on a, and through the door"
# Leaving the finished game comes back to the door's menu, with the rating the store now holds.
tmux send-keys -t "$s_kay" q
wait_for "$s_kay" "Your Classic rating: " 30
tmux send-keys -t "$s_kay" q
expect_status "$s_kay" kay 0 30
echo "door-nodes: an ssh player on node a played a rated duel held by node b, and its menu said the new rating"

# 6. An arena from the door's menu across nodes (issue 44): its room lives on b; the key picks it
# in a's menu, a redirects the door's arena_join to b with a ticket, and b takes it under the
# key's door name: the key's own line is in the standings it is shown.
arena_room=$(wire name b "~arena-dn" a b)
arena=${arena_room#"~arena-"}
"$bin" arena "127.0.0.1:$tcp_port" --create "$arena" --minutes 10 --starts-in 600 >"$work/arena-created" \
    || fail "arena --create: $(cat "$work/arena-created")"
run_in "$s_kay" kay-arena "$(door kay "" "-b 127.0.0.5")"
wait_for "$s_kay" "a. Arenas: timed tournaments to join" 30
tmux send-keys -t "$s_kay" a
wait_for "$s_kay" "1. $arena · Classic, rated · starts in" 30
tmux send-keys -t "$s_kay" 1
wait_for "$s_kay" "You: #1 of 1" 30
tmux capture-pane -p -t "$s_kay" | grep -qF "1   $kay_name" || { tmux capture-pane -p -t "$s_kay" >&2; fail "the standings do not list the key as $kay_name"; }
log_shows "$work/server.log" "sent to $b_address for ~arena-$arena" || fail "node a did not redirect the door's arena_join to b"
tmux send-keys -t "$s_kay" q
wait_for "$s_kay" "a. Arenas: timed tournaments to join" 30
tmux send-keys -t "$s_kay" q
expect_status "$s_kay" kay-arena 0 30
echo "door-nodes: the key joined an arena living on b from a's door menu (redirected with a ticket), under its door name"
