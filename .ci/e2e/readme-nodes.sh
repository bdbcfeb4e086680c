#!/usr/bin/env bash
# The README's "From one server to three", run as printed (issue 35): its six blocks, each on the
# machine it names, with nothing in them edited. Machines a, b and c are network, mount and host-
# name namespaces of their own (10.35.0.1–3, each with its own /etc, /var, /usr/local and /run,
# `hostname -s` saying a, b or c); the balancer's machine is one too (lb, 10.35.0.253,
# play.example.org), so the nodes tell its connections (PROXY v2, --proxy-from) from the players';
# the database's machine is the namespace around them (10.35.0.254), where a throwaway PostgreSQL
# listens on db.example.org:5432 with a `postgres` superuser, and the players are. /etc/hosts
# names them all, so nothing is looked up.
# Each block runs from a folder holding `.build/release/setgame` (the binary under test) and
# `contrib/` (the checkout's). Before the section, a is one server holding a rated game in
# SQLite; after it, as a player would: the ratings as they were, `setgame join` at 80x24 through a
# for a match that lives on b dealt twelve cards and a set taken, `setgame watch` through c sees
# it, each node ready, haproxy in front ready, b killed answers node_away and b started again with
# the README's line takes its players back. Needs root (CI runs as root).
set -euo pipefail
[ -z "${SETGAME_TRACE:-}" ] || set -x
bin="${SETGAME:?path to the setgame binary}"
root="$(cd "$(dirname "$0")/../.." && pwd)"
[ "$(id -u)" = 0 ] || { echo "the README's nodes need root (namespaces, users); skipped"; exit 0; }

if [ -z "${SETGAME_README_NODES:-}" ]; then
    bin=$(readlink -f "$bin")
    if ! unshare --mount --net --pid --uts --fork --mount-proc true 2>/dev/null; then
        echo "no private namespaces here (unshare refused); skipped"
        exit 0
    fi
    exec unshare --mount --net --pid --uts --fork --mount-proc env SETGAME_README_NODES=1 SETGAME="$bin" bash "$0"
fi

# Inside: the database's and the balancer's machine, and the players' internet.
layers=$(mktemp -d /tmp/setgame-readme-nodes-XXXXXX)
chmod 711 "$layers"  # the postgres user reaches its cluster inside
machines=()
cleanup() {
    for pid in "${machines[@]}"; do kill "$pid" 2>/dev/null || true; done
    [ -d "$layers/pg" ] && runuser -u postgres -- "$pg_bin/pg_ctl" -D "$layers/pg/data" -m immediate -w stop >/dev/null 2>&1 || true
    rm -rf "$layers" "${pane_marks:-}"
}
trap cleanup EXIT
overlay() {  # overlay LAYER DIR...: DIR writable, its changes kept in LAYER and gone on exit
    local layer=$1 dir name
    shift
    for dir in "$@"; do
        name=${dir//\//_}
        mkdir -p "$layer/$name.upper" "$layer/$name.work"
        chmod --reference="$dir" "$layer/$name.upper"
        mount -t overlay overlay -o "lowerdir=$dir,upperdir=$layer/$name.upper,workdir=$layer/$name.work" "$dir"
    done
}
overlay "$layers/outer" /etc /usr/local /var /root
mount -t tmpfs -o mode=755 tmpfs /run
hostname db
ip link set lo up
ip link add br35 type bridge
ip addr add 10.35.0.254/24 dev br35
ip link set br35 up
cat >>/etc/hosts <<'HOSTS'
10.35.0.1 a.play.example.org
10.35.0.2 b.play.example.org
10.35.0.3 c.play.example.org
10.35.0.253 play.example.org
10.35.0.254 db.example.org
HOSTS
export TMUX_TMPDIR="$layers"
. "$root/.ci/lib.sh"
helper="$root/.ci/e2e/readme_nodes.py"

# The checkout each block runs from.
mkdir -p "$layers/checkout/.build/release"
cp "$bin" "$layers/checkout/.build/release/setgame"
ln -s "$root/contrib" "$layers/checkout/contrib"

# blocks: the section's fenced blocks, into $layers/block.N; block TEXT: the one holding TEXT.
section="From one server to three"
count=$(python3 "$root/.ci/e2e/readme_blocks.py" "$root/README.md" "$layers/block" "$section")
[ "$count" = 6 ] || fail "README, \"$section\": expected six blocks (database, store, node, new machine, readiness, haproxy), found $count"
block() {
    local found
    found=$(grep -lF -- "$1" "$layers"/block.* || true)
    [ -n "$found" ] && [ "$(wc -l <<<"$found")" = 1 ] || fail "README, \"$section\": expected one block with '$1', found: $found"
    echo "$found"
}
database=$(block "createdb")
store=$(block "--store postgresql://setgame@db.example.org:5432/setgame >>")
node=$(block "--node \"\$(hostname -s)\"")
newcomer=$(block "useradd")
readiness=$(block "serve --check --address")
balancer=$(block "haproxy.cfg")
# Their shapes, so a block that changes is looked at here again.
grep -q -- "--node" "$store" && fail "README: the store's block starts a node (it must start a's server alone)"
for option in "--data /var/lib/setgame" "--advertise \"\$(hostname -s).play.example.org:7380\"" "--store postgresql://setgame@db.example.org:5432/setgame" \
    "--proxy-from" " &"; do
    grep -qF -- "$option" "$node" || fail "README: the node's block lost '$option': $(cat "$node")"
done
grep -qF ".build/release/setgame" "$newcomer" || fail "README: the new machine's block installs no binary"
[ "$(grep -c . "$readiness")" = 1 ] || fail "README: the readiness block is more than one line: $(cat "$readiness")"
grep -qF "bind :7380" "$root/contrib/haproxy.cfg" && grep -qF "server b b.play.example.org:7380 check" "$root/contrib/haproxy.cfg" \
    || fail "contrib/haproxy.cfg no longer listens on :7380 in front of a.play.example.org … c.play.example.org"

# run_on MACHINE BLOCK [PIDFILE]: runs the block as printed on MACHINE ("db" for this one) from the
# checkout; PIDFILE gets what it started in the background ($!).
run_on() {
    local machine=$1 file=$2 pidfile=${3:-/dev/null}
    echo "--- README, on $machine:"; cat "$file"
    if [ "$machine" = db ]; then
        (cd "$layers/checkout" && bash -ec '. "$1"; echo "${!:-}" >"$2"' _ "$file" "$pidfile") || fail "on $machine, the block stopped as printed"
    else
        nsenter -t "${machine_pid[$machine]}" -m -n -u -- bash -ec 'cd "$1"; . "$2"; echo "${!:-}" >"$3"' _ "$layers/checkout" "$file" "$pidfile" \
            || fail "on $machine, the block stopped as printed"
    fi
}
declare -A machine_pid
# machine NAME N: a machine of its own at 10.35.0.N on the bridge, named NAME.
machine() {
    local name=$1 n=$2 pid
    unshare --mount --net --uts sleep infinity &
    pid=$!
    machines+=("$pid")
    for _ in $(seq 100); do [ "$(readlink /proc/$pid/ns/net)" != "$(readlink /proc/self/ns/net)" ] && break; sleep 0.05; done
    machine_pid[$name]=$pid
    ip link add "v$name" type veth peer name eth0 netns "$pid"
    ip link set "v$name" master br35 up
    nsenter -t "$pid" -m -n -u -- bash -ec "
        $(declare -f overlay)
        overlay $layers/$name /etc /usr/local /var /root
        mount -t tmpfs -o mode=755 tmpfs /run
        hostname $name
        ip link set lo up
        ip addr add 10.35.0.$n/24 dev eth0
        ip link set eth0 up"
}
machine a 1
machine b 2
machine c 3
machine lb 253

# ready MACHINE: waits until the README's readiness line exits 0 there.
ready() {
    for _ in $(seq 300); do
        nsenter -t "${machine_pid[$1]}" -m -n -u -- bash "$readiness" >"$layers/ready.$1" 2>&1 && return 0
        sleep 0.2
    done
    nsenter -t "${machine_pid[$1]}" -m -n -- tail -20 /var/log/setgame.log >&2 || true
    fail "node $1 never said ready: $(cat "$layers/ready.$1")"
}
# serve_pid PIDFILE: the setgame process a block started (runuser's child).
serve_pid() {
    local started
    started=$(cat "$1")
    pgrep -P "$started" -x setgame || echo "$started"
}
stop_node() {  # stop_node PIDFILE SIGNAL
    local pid
    pid=$(serve_pid "$1")
    kill "-$2" "$pid"
    for _ in $(seq 150); do kill -0 "$pid" 2>/dev/null || return 0; sleep 0.2; done
    fail "setgame $pid did not stop on SIG$2"
}

# The database's machine: PostgreSQL as Debian runs it, listening for the nodes on its address.
pg_bin=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -1)
install -d -o postgres -m 700 "$layers/pg"
install -d -o postgres -m 2775 /run/postgresql
runuser -u postgres -- "$pg_bin/initdb" -D "$layers/pg/data" -A trust --no-sync >"$layers/initdb.log" 2>&1 || { cat "$layers/initdb.log" >&2; fail "initdb"; }
echo "host all all 10.35.0.0/24 trust" >>"$layers/pg/data/pg_hba.conf"
runuser -u postgres -- "$pg_bin/pg_ctl" -D "$layers/pg/data" -l "$layers/pg/log" -w \
    -o "-k /run/postgresql -p 5432 -c listen_addresses=127.0.0.1,10.35.0.254" start >/dev/null

# Before the section: a is one server, as "Open an ssh door" runs it, with a rated game in SQLite.
run_on a "$newcomer"
nsenter -t "${machine_pid[a]}" -m -n -u -- bash -c 'runuser -u setgame -- setgame serve --host 0.0.0.0 --port 7380 --data /var/lib/setgame >>/var/log/setgame.log 2>&1 & echo $! >"$1"' _ "$layers/a.pid"
ready a
python3 "$helper" rated-game a.play.example.org:7380 || fail "the rated warm-up duel on a"
"$layers/checkout/.build/release/setgame" profile a.play.example.org ann --json >"$layers/profile.before" || fail "ann's profile on a"
stop_node "$layers/a.pid" TERM

# The database, then a on it alone: the same ratings.
runuser -u postgres -- bash -c "cd /tmp && bash -e '$database'" || fail "the database's block stopped as printed"
run_on a "$store" "$layers/a.pid"
ready a
"$layers/checkout/.build/release/setgame" profile a.play.example.org ann --json >"$layers/profile.after" || fail "ann's profile on a, on PostgreSQL"
same_files "$layers/profile.before" "$layers/profile.after" "ann's profile changed when a moved to PostgreSQL"
grep -q '"wins":1' "$layers/profile.after" || fail "ann's profile holds no win: $(cat "$layers/profile.after")"
echo "readme-nodes: a moved to PostgreSQL, ann's profile as it was"

# a becomes node a; b and c join it.
stop_node "$layers/a.pid" TERM
run_on a "$node" "$layers/a.pid"
for m in b c; do
    run_on "$m" "$newcomer"
    run_on "$m" "$node" "$layers/$m.pid"
done
for m in a b c; do ready "$m"; echo "readme-nodes: $m ready ($(cat "$layers/ready.$m"))"; done
run_on lb "$balancer"
for _ in $(seq 300); do "$layers/checkout/.build/release/setgame" serve --check --address play.example.org:7380 >"$layers/ready.lb" 2>&1 && break; sleep 0.2; done || true
"$layers/checkout/.build/release/setgame" serve --check --address play.example.org:7380 >"$layers/ready.lb" 2>&1 || fail "through play.example.org: $(cat "$layers/ready.lb")"
echo "readme-nodes: play.example.org (haproxy) ready: $(cat "$layers/ready.lb")"

# A player at a for a match that lives on b, with dan seated there; one watching through c.
# wait_file FILE WHAT: waits until dan (readme_nodes.py seat) has written FILE.
wait_file() {
    for _ in $(seq 300); do [ -s "$1" ] && return 0; sleep 0.2; done
    fail "no $2 within 60 s: $(cat "$layers/dan.log")"
}
match=""
for candidate in friday saturday sunday monday tuesday wednesday thursday; do
    if [ "$(python3 "$helper" home "$candidate")" = b ]; then match=$candidate; break; fi
done
[ -n "$match" ] || fail "no weekday lives on b"
mkdir "$layers/dan"
python3 "$helper" seat b.play.example.org:7380 "$match" "$layers/dan" >"$layers/dan.log" 2>&1 &
dan=$!
wait_file "$layers/dan/token" "dan's seat in $match on b"
tmux new-session -d -s fay -x 80 -y 24
run_in fay fay "XDG_STATE_HOME=$layers/fay $layers/checkout/.build/release/setgame join a.play.example.org:7380 --name fay --match $match"
wait_file "$layers/dan/set" "a set on the table dan sees"
# Twelve, or fifteen when the first twelve held no set and dan dealt three more (cards before set).
wait_for_cards fay "$(cat "$layers/dan/cards")" 60
# shellcheck disable=SC2046
pick_cards fay $(cat "$layers/dan/set")
wait_for fay "you took a set" 30
wait_file "$layers/dan/deck" "the set fay took, as dan saw it"
read -r deck _ <"$layers/dan/deck"
echo "readme-nodes: fay at a.play.example.org, 80x24, dealt $(cat "$layers/dan/cards") cards in $match on b, took a set"
tmux new-session -d -s eve -x 80 -y 24
run_in eve eve "$layers/checkout/.build/release/setgame watch c.play.example.org:7380 $match"
wait_for eve "deck $deck" 60
echo "readme-nodes: eve at c.play.example.org watches $match (deck $deck)"

# b killed: its match is away, on any node; b started again with the README's line: back.
stop_node "$layers/b.pid" KILL
away=$(python3 "$helper" away c.play.example.org:7380 "$match") || exit 1
echo "readme-nodes: b killed; $match at c: $away"
# fay's client was on b: it says so and keeps trying b, where the match comes back. gus, coming
# to watch through c meanwhile, is told b is away and waits, however long b takes.
wait_for fay "Connection lost: retrying in" 60
tmux new-session -d -s gus -x 80 -y 24
run_in gus gus "$layers/checkout/.build/release/setgame watch c.play.example.org:7380 $match"
wait_for gus "(b) is away: asking again in" 60
run_on b "$node" "$layers/b.pid"
ready b
resumed=$(python3 "$helper" resume a.play.example.org:7380 "$match" "$(cat "$layers/dan/token")") || exit 1
grep -q '"resumed": true' <<<"$resumed" || fail "dan did not take his seat back on b: $resumed"
touch "$layers/dan/stop"
for _ in $(seq 300); do tmux capture-pane -p -t fay | grep -qE "Connection lost|offline" || break; sleep 0.2; done
tmux capture-pane -p -t fay | grep -qE "Connection lost|offline" && { tmux capture-pane -p -t fay >&2; fail "fay's client did not get back to b"; }
wait_for_cards fay 12 60
wait_for fay "deck $deck" 60
wait_for gus "deck $deck" 60
echo "readme-nodes: b started again as printed: dan and fay back in $match, gus (who came meanwhile) watching"
echo "readme-nodes: the README's \"$section\" ran as printed"
