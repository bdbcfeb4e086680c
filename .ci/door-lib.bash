# Shared by .ci/e2e/door.sh, door-nodes.sh and the door benches: a server with its door socket and
# a second sshd with contrib/sshd_config.setgame (paths substituted) on a free loopback port, the
# two door logins, and a cleanup on exit (with the script's door_extra_cleanup, if it has one).
# Sourced after lib.sh, with bin, root and prefix set; it sets work, tcp_port, ssh_port, ssh_opts
# and the helpers door, pane, start_bot_duel and duels_playing. door_serve_options: more serve options (the benchmarks lift the
# other per-address limits; door-nodes.sh makes the server node a of a shared store).
door_connections_per_address=${door_connections_per_address:-3}
[ "$(id -u)" = 0 ] || { echo "the door checks need root for sshd and its users; skipped"; exit 0; }
sshd=/usr/sbin/sshd
[ -x "$sshd" ] || fail "no $sshd: install openssh-server"

work=$(mktemp -d)
chmod 755 "$work"
# sshd refuses an AuthorizedKeysCommand in a folder anyone else may write to, /tmp included.
keys_dir=$(mktemp -d /usr/local/lib/setgame-door-ci-XXXXXX)
chmod 755 "$keys_dir"
install -m 755 "$root/contrib/setgame-door-keys" "$keys_dir/setgame-door-keys"
# The door runs as the logins below, which may not reach a checkout in a private folder (a clone
# under /root, or in a `mktemp -d`): they run a copy of the binary from here.
door_bin="$keys_dir/setgame"
install -m 755 "$bin" "$door_bin"
server_pid=""; sshd_pid=""
cleanup() {
    local status=$?
    if [ "$status" != 0 ] && [ -f "$work/sshd.log" ]; then
        echo "--- sshd log ---" >&2; tail -20 "$work/sshd.log" >&2
        echo "--- server log ---" >&2; tail -20 "$work/server.log" >&2
    fi
    for s in $(tmux ls -F '#S' 2>/dev/null | grep "^$prefix-" || true); do tmux kill-session -t "$s" 2>/dev/null || true; done
    [ -n "$sshd_pid" ] && kill "$sshd_pid" 2>/dev/null || true
    [ -n "$server_pid" ] && kill "$server_pid" 2>/dev/null || true
    # A script's own servers (door-nodes.sh: node b and its PostgreSQL), when it defines this.
    if declare -F door_extra_cleanup >/dev/null; then door_extra_cleanup; fi
    rm -rf "$work" "$keys_dir"
}
trap cleanup EXIT

# The two logins of the door: `set` for keys, `guest` with an empty password for everyone else.
# Each with a home sshd can change into, as the README makes them: without one every login
# prints "Could not chdir to home directory" (door.sh checks that none does).
for user in set guest; do
    id "$user" >/dev/null 2>&1 || useradd --system --no-create-home --home-dir / --shell /bin/sh "$user"
    # A session of another check may be using the login: then its home stays as it is.
    usermod -d / "$user" 2>/dev/null || true
done
# A new system account is locked ("!"), which sshd refuses without PAM: `set` gets "*" (no
# password works, keys do), `guest` an empty password.
usermod -p '*' set
passwd -d guest >/dev/null
mkdir -p /run/sshd
install -d -o set -m 700 "$work/door-state"

# The server: a door socket for the two logins, at most three connections per address (bob, cat
# and dan all come from 127.0.0.1).
"$bin" serve --port 0 --data "$work/data" --door-socket "$work/door.sock" --door-user set,guest --connections-per-address "$door_connections_per_address" ${door_serve_options:-} \
    --seat-wait-ms 120000 >"$work/server.log" 2>&1 &
server_pid=$!
# The socket may be made a moment before the line saying the TCP port is written: wait for both.
# The log itself is made by the server's shell, which may not have run yet on a busy machine.
tcp_port=""
for _ in $(seq 150); do
    tcp_port=$(sed -n 's/^setgame serving on 127.0.0.1:\([0-9]*\)$/\1/p' "$work/server.log" 2>/dev/null || true)
    [ -S "$work/door.sock" ] && [ -n "$tcp_port" ] && break
    sleep 0.2
done
[ -S "$work/door.sock" ] || { cat "$work/server.log" >&2; fail "the server made no door socket"; }
[ -n "$tcp_port" ] || { cat "$work/server.log" >&2; fail "the server did not say its TCP port"; }

# sshd with the contrib config, paths substituted.
ssh_port=$(free_port)
ssh-keygen -q -t ed25519 -N '' -C '' -f "$work/host_key"
sed -e "s#^Port .*#Port $ssh_port#" -e "s#^ListenAddress .*#ListenAddress 127.0.0.1#" \
    -e "s#^HostKey .*#HostKey $work/host_key#" -e "s#^PidFile .*#PidFile $work/sshd.pid#" \
    -e "s#/usr/local/lib/setgame/setgame-door-keys#$keys_dir/setgame-door-keys#" \
    -e "s#/usr/local/bin/setgame door --socket /run/setgame/door.sock --state /var/lib/setgame-door#$door_bin door --socket $work/door.sock --state $work/door-state#" \
    "$root/contrib/sshd_config.setgame" >"$work/sshd_config"
grep -q "ForceCommand $door_bin door" "$work/sshd_config" || fail "the ForceCommand was not substituted"
"$sshd" -t -f "$work/sshd_config" || fail "sshd refused the contrib config"
"$sshd" -D -f "$work/sshd_config" -E "$work/sshd.log" &
sshd_pid=$!
for _ in $(seq 150); do (exec 3<>"/dev/tcp/127.0.0.1/$ssh_port") 2>/dev/null && break; sleep 0.2; done

for k in ann bob cat dan eve; do ssh-keygen -q -t ed25519 -N '' -C '' -f "$work/$k"; done
ssh_opts="-o StrictHostKeyChecking=no -o UserKnownHostsFile=/dev/null -o LogLevel=ERROR -o IdentitiesOnly=yes -p $ssh_port"
door() { echo "ssh -tt $ssh_opts -i $work/$1 ${3:-} set@127.0.0.1 ${2:-}"; }
# pane NAME [COLUMNS ROWS]: a tmux session for one player, 100×32 unless told.
pane() {
    local name=$prefix-$1
    tmux new-session -d -s "$name" -x "${2:-100}" -y "${3:-32}"
    echo "$name"
}
# start_bot_duel SESSION [KEY] [SECONDS]: a door bot duel waits on its start box for the player's
# first key; presses KEY (Enter unless told: what a newcomer types after the menu's digit) and
# waits for the twelve cards the bot's arrival deals.
start_bot_duel() {
    wait_for "$1" "Press any key to start" "${3:-30}"
    tmux send-keys -t "$1" "${2:-Enter}"
    wait_for_cards "$1" 12 "${3:-30}"
}
# duels_playing PREFIX: how many of the server's matches named PREFIX… are duels being played
# with both seats present, from its match list (asked from 127.0.0.9, whose share nobody holds).
duels_playing() {
    python3 - "$tcp_port" "$1" <<'PY'
import json, socket, sys
sock = socket.create_connection(("127.0.0.1", int(sys.argv[1])), timeout=30, source_address=("127.0.0.9", 0))
lines = sock.makefile("rb")
json.loads(lines.readline())  # welcome
playing, after = 0, None
while True:
    request = {"type": "list", "limit": 50, "id": "l"}
    if after:
        request["after"] = after
    sock.sendall((json.dumps(request) + "\n").encode())
    page = next(m for m in map(json.loads, lines) if m.get("id") == "l")
    playing += sum(1 for m in page["matches"] if m["name"].startswith(sys.argv[2]) and m["state"] == "playing"
                   and len(m["players"]) == 2 and all(p["present"] for p in m["players"]))
    after = page.get("next")
    if not after:
        break
print(playing)
PY
}
