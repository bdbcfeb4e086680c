#!/usr/bin/env bash
# The README's hosting, run as printed: "Open an ssh door" on a plain Debian host without systemd
# (its three blocks: the logins and files, the server started with its door socket, the door's
# sshd) and "Hosting a match for a friend" (ann and bob in friday with one watching, cy and the
# hard bot in sunday, no match_full). The commands are read from README.md, so a step that stops
# as printed stops here. Only HOST becomes 127.0.0.1 and `.build/release/setgame` the binary under
# test; the server's output goes to a file, and ssh gets a generated key and no host-key prompt.
# It all runs in private namespaces: /etc, /usr/local, /var and /root are overlays that vanish,
# /run starts empty (no /run/sshd, as on a host whose own sshd never ran), ports 7380 and 2222 are
# on a loopback of its own. Needs root and openssh-server (CI installs it).
set -euo pipefail
bin="${SETGAME:?path to the setgame binary}"
root="$(cd "$(dirname "$0")/../.." && pwd)"
[ "$(id -u)" = 0 ] || { echo "the README's hosting needs root (users, sshd); skipped"; exit 0; }

if [ -z "${SETGAME_README_HOST:-}" ]; then
    bin=$(readlink -f "$bin")
    if ! unshare --mount --net --pid --fork --mount-proc true 2>/dev/null; then
        echo "no private namespaces here (unshare refused); skipped"
        exit 0
    fi
    exec unshare --mount --net --pid --fork --mount-proc env SETGAME_README_HOST=1 SETGAME="$bin" bash "$0"
fi

# Inside: a host of our own.
layers=$(mktemp -d /tmp/setgame-readme-host-XXXXXX)
trap 'rm -rf "$layers" "${pane_marks:-}"' EXIT
for dir in /etc /usr/local /var /root; do
    name=${dir//\//_}
    mkdir -p "$layers/$name.upper" "$layers/$name.work"
    chmod --reference="$dir" "$layers/$name.upper"
    mount -t overlay overlay -o "lowerdir=$dir,upperdir=$layers/$name.upper,workdir=$layers/$name.work" "$dir"
done
mount -t tmpfs -o mode=755 tmpfs /run
# A fresh host: the door's check (door.sh) may have made the logins on this one.
for user in set guest setgame; do userdel "$user" 2>/dev/null || true; done
rm -rf /etc/setgame /usr/local/lib/setgame /usr/local/bin/setgame /var/lib/setgame /var/lib/setgame-door /var/log/setgame.log
ip link set lo up
# tmux and the panes' marks stay in here: an outside tmux server would run the panes outside.
export TMUX_TMPDIR="$layers"
. "$root/.ci/lib.sh"

# blocks SECTION: the README's fenced blocks under "## SECTION", into $layers/SECTION.N.
blocks() {
    python3 "$root/.ci/e2e/readme_blocks.py" "$root/README.md" "$layers/$1" "$1"
}
# block SECTION TEXT: the path of SECTION's one block holding TEXT.
block() {
    local found
    found=$(grep -lF -- "$2" "$layers/$1".* || true)
    [ -n "$found" ] && [ "$(wc -l <<<"$found")" = 1 ] || fail "README, \"$1\": expected one block with '$2', found: $found"
    echo "$found"
}

# 1. "Open an ssh door", as root, from the checkout.
[ "$(blocks "Open an ssh door")" -ge 3 ] || fail "README, \"Open an ssh door\": fewer than three blocks"
setup=$(block "Open an ssh door" "apt-get install openssh-server")
serve=$(block "Open an ssh door" "runuser -u setgame")
door_sshd=$(block "Open an ssh door" "sshd -t")
sed -i "s#\.build/release/setgame#$bin#g" "$setup"
cd "$root"
echo "--- README: the door's logins and files"; cat "$setup"
bash -e "$setup" || fail "the door's setup stopped as printed"
[ -x /usr/local/bin/setgame ] || fail "the door's setup left no /usr/local/bin/setgame for sshd's ForceCommand"
echo "--- README: the server with its door socket, without systemd"; cat "$serve"
bash -e "$serve" || fail "the server's lines stopped as printed"
for _ in $(seq 150); do [ -S /run/setgame/door.sock ] && break; sleep 0.2; done
[ -S /run/setgame/door.sock ] || { tail -20 /var/log/setgame.log >&2; fail "the server made no door socket"; }
echo "--- README: the door's sshd"; cat "$door_sshd"
bash -e "$door_sshd" || fail "the door's sshd stopped as printed"
for _ in $(seq 150); do (exec 3<>/dev/tcp/127.0.0.1/2222) 2>/dev/null && break; sleep 0.2; done

ssh-keygen -q -t ed25519 -N '' -C '' -f "$layers/ann"
ssh-keygen -q -t ed25519 -N '' -C '' -f "$layers/bob"
ssh_opts="-o StrictHostKeyChecking=no -o UserKnownHostsFile=/dev/null -o LogLevel=ERROR -o IdentitiesOnly=yes"
tmux new-session -d -s door-ann -x 80 -y 24
tmux new-session -d -s door-bob -x 80 -y 24
run_in door-ann ann "ssh -tt $ssh_opts -i $layers/ann -p 2222 set@127.0.0.1 join"
# The invitation a waiting key is shown, pasted by a second key: its own key and options go in
# after `ssh`, and nothing else (the invitation's own -t asks for the terminal; no -tt added).
wait_for door-ann "A friend can join with:" 30
invitation=$(tmux capture-pane -p -t door-ann | grep -oE "ssh -t -p 2222 set@127\.0\.0\.1 join [A-Za-z0-9._-]+" | head -1)
[ -n "$invitation" ] || { tmux capture-pane -p -t door-ann >&2; fail "the waiting key was shown no door command to join"; }
run_in door-bob bob "${invitation/ssh /ssh $ssh_opts -i $layers/bob }"
wait_for_cards door-ann 12 30
wait_for_cards door-bob 12 30
echo "door: the waiting key's invitation, pasted by a second key, dealt their duel"
board=$(ssh $ssh_opts -i "$layers/ann" -p 2222 set@127.0.0.1 leaderboard 2>&1) || fail "the door's leaderboard failed: $board"
guest=$(ssh $ssh_opts -o PubkeyAuthentication=no -p 2222 guest@127.0.0.1 leaderboard 2>&1) || fail "a guest's leaderboard failed: $guest"
for screen in "$board" "$guest" "$(tmux capture-pane -p -t door-ann)" "$(tmux capture-pane -p -t door-bob)"; do
    grep -q "Could not chdir" <<<"$screen" && fail "a login printed: $screen"
done
echo "door: a key's and a guest's leaderboard answered; no login said \"Could not chdir\""
for s in door-ann door-bob; do tmux kill-session -t $s; done
kill "$(cat /run/setgame-sshd.pid)"
server=$(pgrep -f "setgame serve --host 0.0.0.0 --port 7380 --data /var/lib/setgame") || fail "the door's server is gone"
kill $server
for _ in $(seq 150); do (exec 3<>/dev/tcp/127.0.0.1/7380) 2>/dev/null || break; sleep 0.2; done

# 2. "Hosting a match for a friend": each line in a terminal of its own, in the README's order.
[ "$(blocks "Hosting a match for a friend")" -ge 2 ] || fail "README, \"Hosting a match for a friend\": fewer than two blocks"
friday=$(block "Hosting a match for a friend" "--name ann")
sunday=$(block "Hosting a match for a friend" "--name cy")
n=0
while IFS= read -r line; do
    command=$(sed -e 's/ *#.*$//' -e 's/HOST:/127.0.0.1:/g' <<<"$line")
    [ -n "$command" ] || continue
    n=$((n + 1))
    echo "--- README, friend $n: $command"
    tmux new-session -d -s friend-$n -x 80 -y 24
    case $command in
    *" serve "*)
        run_in friend-$n host "$command >$layers/serve.log 2>&1"
        for _ in $(seq 150); do grep -qs listening "$layers/serve.log" && break; sleep 0.2; done
        grep -q listening "$layers/serve.log" || fail "the host's serve did not listen: $(cat "$layers/serve.log")"
        ;;
    *" join "*) run_in friend-$n friend-$n "$command"; wait_for friend-$n "$(grep -oE -- '--match [a-z]+' <<<"$command" | cut -c9-)" 30 ;;
    *" watch "*) run_in friend-$n friend-$n "$command"; wait_for friend-$n "deck 69" 30 ;;
    *" bot "*) run_in friend-$n friend-$n "$command"; wait_for friend-$n "joined" 30 ;;
    *) fail "README, \"Hosting a match for a friend\": a line this check does not know: $command" ;;
    esac
    # Two players in a match: both dealt, before the next line runs.
    case $command in *"--name bob"*) wait_for_cards friend-$((n - 1)) 12 30; wait_for_cards friend-$n 12 30 ;; esac
    case $command in *" bot "*) wait_for_cards friend-$((n - 1)) 12 30 ;; esac
done < <(cat "$friday" "$sunday")
[ "$n" -ge 6 ] || fail "README, \"Hosting a match for a friend\": expected serve, two joins, a watch, a join and a bot; ran $n lines"
grep -q "match_full" "$layers/serve.log" && fail "the server logged match_full: $(grep match_full "$layers/serve.log")"
echo "friend: friday dealt to ann and bob with one watching, sunday to cy and the bot; no match_full"
for s in $(tmux ls -F '#S'); do tmux kill-session -t "$s"; done
echo "readme-hosting: the door's setup and the friend's match ran as the README prints them"
