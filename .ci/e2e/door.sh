#!/usr/bin/env bash
# The ssh door, through a real OpenSSH: a second sshd on a loopback port with a generated host key
# and contrib/sshd_config.setgame (paths substituted), a server with its door socket, and players
# in tmux with generated keys. A player reaches the menu and a dealt duel against a bot; two keys
# duel each other and a third watches; a key that drops takes its seat back with the same command;
# a keyless guest plays and has no account; a shell, a port forward, agent forwarding and an injected environment
# variable get nothing; two keys from two source addresses are held to their shares apart.
# Needs root (sshd, useradd) and openssh-server/openssh-client (CI installs them).
set -euo pipefail
bin="${SETGAME:?path to the setgame binary}"
. "$(dirname "$0")/../lib.sh"
root="$(cd "$(dirname "$0")/../.." && pwd)"
prefix=setgame-door-$$
. "$root/.ci/door-lib.bash"

# 1. The menu, then a dealt duel against the easy bot.
s_menu=$(pane menu)
run_in "$s_menu" menu "$(door ann)"
wait_for "$s_menu" "Set, over ssh" 30
wait_for "$s_menu" "You play as key-"
tmux send-keys -t "$s_menu" 2
wait_for_cards "$s_menu" 12 30
echo "menu: reached it, and a duel against the bot was dealt"
# The house bot plays under an account of its own, listed as a bot, so the duel is rated.
"$bin" profile "127.0.0.1:$tcp_port" bot-easy | grep -q '^bot-easy \[bot\]:' || fail "the door's bot is no bot account: $("$bin" profile "127.0.0.1:$tcp_port" bot-easy 2>&1)"
echo "menu: the bot is the door's bot-easy account, listed as a bot"
tmux send-keys -t "$s_menu" q
tmux send-keys -t "$s_menu" y 2>/dev/null || true
expect_status "$s_menu" menu 0 30
echo "menu: quitting ended the ssh session"

# 2. Two keys duel each other; 3. a third watches.
s_bob=$(pane bob); s_cat=$(pane cat); s_dan=$(pane dan)
run_in "$s_bob" bob "$(door bob "join friday")"
wait_for "$s_bob" "friday" 30
run_in "$s_cat" cat "$(door cat "join friday")"
wait_for_cards "$s_bob" 12 30
wait_for_cards "$s_cat" 12 30
echo "duel: two keys play friday"
run_in "$s_dan" dan "$(door dan "watch friday")"
wait_for "$s_dan" "1 watching" 30
wait_for "$s_dan" "╰───" 30
wait_for "$s_bob" "1 watching" 30
echo "watch: a third key watches friday"

# 4. Bob drops (his ssh client is killed) and the same command takes his seat back.
bob_ssh=$(pgrep -f -- "-i $work/bob " | head -1)
[ -n "$bob_ssh" ] || fail "no ssh client for bob"
kill -9 "$bob_ssh"
expect_status "$s_bob" bob 137 30
wait_for "$s_cat" "away" 30
run_in "$s_bob" bob2 "$(door bob "join friday")"
wait_for_cards "$s_bob" 12 30
grep -q "key-.*(seat [01] of friday) joined with a token" "$work/server.log" || { cat "$work/server.log" >&2; fail "bob's return did not resume his seat"; }
echo "resume: the same key and command took the seat back"

# 5. A guest, no key at all.
s_guest=$(pane guest)
run_in "$s_guest" guest "ssh -tt $ssh_opts -b 127.0.0.4 -o PubkeyAuthentication=no guest@127.0.0.1 play --solo"
wait_for_cards "$s_guest" 12 30
wait_for "$s_guest" "guest-"
echo "guest: played solo without a key"
# A guest is a guest: the name it plays under is no account (issue 32), whatever key its client made.
guest_name=$(tmux capture-pane -p -t "$s_guest" | grep -oE 'guest-[0-9]+' | head -1)
[ -n "$guest_name" ] || fail "no guest name on the guest's screen"
# Asked from an address of its own: 127.0.0.1 holds its share of connections (bob, cat and dan).
out=$(python3 - "$tcp_port" "$guest_name" <<'PY'
import json, socket, sys
s = socket.create_connection(("127.0.0.1", int(sys.argv[1])), timeout=10, source_address=("127.0.0.5", 0))
f = s.makefile("rwb")
f.readline()  # welcome
f.write((json.dumps({"type": "profile", "name": sys.argv[2]}) + "\n").encode()); f.flush()
print(f.readline().decode().strip())
PY
)
echo "$out" | grep -q '"code":"no_such_player"' || fail "the guest $guest_name has an account: $out"
echo "guest: $guest_name has no account"

# 6. Nothing but the game: a shell, a forward, an agent, an injected variable.
set +e
out=$(ssh -T $ssh_opts -i "$work/eve" set@127.0.0.1 bash -c id </dev/null 2>&1); status=$?
set -e
[ "$status" = 64 ] || fail "'ssh … bash' exited $status: $out"
echo "$out" | grep -q "^setgame: 'bash' is not a door command; usage: ssh HOST" || fail "'ssh … bash' got: $out"
echo "$out" | grep -q "uid=" && fail "a shell ran: $out"
out=$(ssh -T $ssh_opts -i "$work/eve" -o SetEnv="LD_PRELOAD=/nonexistent/evil.so" -o SetEnv="SSH_USER_AUTH=/etc/passwd" \
      set@127.0.0.1 nonsense </dev/null 2>&1 || true)
echo "$out" | grep -qi "ld.so\|evil" && fail "an injected LD_PRELOAD reached the door: $out"
echo "$out" | grep -q "'nonsense' is not a door command" || fail "with injected variables the door said: $out"
fwd_port=$(free_port)
ssh -N $ssh_opts -i "$work/eve" -o ExitOnForwardFailure=no -L "127.0.0.1:$fwd_port:127.0.0.1:$tcp_port" set@127.0.0.1 \
    </dev/null >"$work/forward.log" 2>&1 &
fwd_pid=$!
# The forward is set up on the client's side; each connection through it asks sshd, which refuses.
got=""
for _ in $(seq 50); do
    got=$(python3 - "$fwd_port" <<'PY' 2>/dev/null || true
import socket, sys
s = socket.create_connection(("127.0.0.1", int(sys.argv[1])), timeout=2)
s.settimeout(2)
try: print(s.recv(200).decode(errors="replace"))
except Exception: print("")
PY
)
    echo "$got" | grep -q welcome && break
    grep -q "refused local port forward" "$work/sshd.log" && break
    sleep 0.2
done
kill "$fwd_pid" 2>/dev/null || true
echo "$got" | grep -q welcome && fail "a port forward reached the server: $got"
grep -q "refused local port forward" "$work/sshd.log" || fail "sshd did not refuse the forward: $(tail -5 "$work/sshd.log")"
eval "$(ssh-agent -s)" >/dev/null
ssh-add -q "$work/eve" 2>/dev/null || true
set +e
out=$(ssh -T -A $ssh_opts -i "$work/eve" set@127.0.0.1 'echo $SSH_AUTH_SOCK' </dev/null 2>&1); status=$?
set -e
ssh-agent -k >/dev/null
[ "$status" = 64 ] || fail "'ssh -A … echo' exited $status: $out"
echo "$out" | grep -q "^setgame: 'echo' is not a door command" || fail "'ssh -A … echo' got: $out"
# sshd makes a forwarded agent's socket under /tmp for the session's user: none may exist for set.
for socket in /tmp/ssh-*/agent.*; do
    [ -e "$socket" ] || continue
    [ "$(stat -c %U "$socket")" = set ] && fail "an agent socket was made for the door: $socket"
done
echo "refused: a shell command, a port forward, agent forwarding and injected variables got nothing"

# 7. Two keys from two addresses: 127.0.0.2 fills its share of three (a bot duel is two
# connections, a solo game one) and a fourth session is refused, while 127.0.0.3 and 127.0.0.1
# (bob, cat and dan, still playing and watching) are not counted with it.
s_a=$(pane addr-a); s_b=$(pane addr-b); s_c=$(pane addr-c); s_d=$(pane addr-d)
run_in "$s_a" a "$(door eve "play" "-b 127.0.0.2")"
wait_for_cards "$s_a" 12 30
run_in "$s_b" b "$(door ann "play --solo" "-b 127.0.0.2")"
wait_for_cards "$s_b" 12 30
run_in "$s_c" c "$(door ann "join" "-b 127.0.0.2")"
wait_for "$s_c" "connections open" 30
expect_status "$s_c" c 1 30
run_in "$s_d" d "$(door eve "play --solo" "-b 127.0.0.3")"
wait_for_cards "$s_d" 12 30
echo "limits: 127.0.0.2 and 127.0.0.3 were held to their shares apart"
echo "door: all passed"
