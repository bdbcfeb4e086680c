# Shared helpers for the end-to-end scripts: waiting on a tmux pane for text, never sleeping blind.
fail() { echo "FAIL: $*" >&2; exit 1; }

# wait_for SESSION TEXT [SECONDS]: polls the pane until TEXT shows, or fails with the screen.
wait_for() {
    local session=$1 text=$2 limit=${3:-30} waited=0
    until tmux capture-pane -p -t "$session" | grep -qF -- "$text"; do
        sleep 0.2
        waited=$((waited + 1))
        if [ "$waited" -ge $((limit * 5)) ]; then
            echo "--- screen of $session ---" >&2
            tmux capture-pane -p -t "$session" >&2
            fail "'$text' did not appear in $session within ${limit}s"
        fi
    done
}

# helper_says PID OUT ERR TEXT: waits until the background helper PID has printed the line TEXT
# into OUT; fails the run with its ERR if it exits first or within 30 s.
helper_says() {
    local pid=$1 out=$2 err=$3 text=$4
    for _ in $(seq 300); do
        grep -qx -- "$text" "$out" && return 0
        kill -0 "$pid" 2>/dev/null || break
        sleep 0.1
    done
    grep -qx -- "$text" "$out" || fail "the helper did not say '$text': $(cat "$err")"
}

# log_shows FILE PATTERN [SECONDS]: waits until FILE holds a line matching PATTERN (grep's basic
# regular expression); false after SECONDS (30). A server may write a line a moment after the
# screens show what it says: a kind of line repeated within a second is held back and written
# when the second is over (LogThrottle), so a script that reads the log at once can miss it.
log_shows() {
    local file=$1 pattern=$2 limit=${3:-30}
    for _ in $(seq $((limit * 5))); do grep -q -- "$pattern" "$file" && return 0; sleep 0.2; done
    return 1
}

# pane_has SESSION TEXT WHAT: the pane, captured now, shows TEXT; else fails with WHAT and the screen.
pane_has() {
    tmux capture-pane -p -t "$1" | grep -qF -- "$2" || { tmux capture-pane -p -t "$1" >&2; fail "$3"; }
}

# wait_gone PATTERN [SECONDS]: waits until no process matches PATTERN.
wait_gone() {
    local pattern=$1 limit=${2:-15} waited=0
    while pgrep -f -- "$pattern" >/dev/null; do
        sleep 0.2
        waited=$((waited + 1))
        [ "$waited" -ge $((limit * 5)) ] && { pgrep -af -- "$pattern" >&2; fail "still running: $pattern"; }
    done
    return 0
}

# Commands typed into a pane report their exit status in a file, so a script waits for the
# command's result and never for text that the typed command line itself already shows.
pane_marks=$(mktemp -d /tmp/setgame-pane-XXXXXX)

# run_in SESSION NAME COMMAND: types COMMAND into the pane; its exit status will be NAME's result.
run_in() {
    local session=$1 name=$2 command=$3
    rm -f "$pane_marks/$name.status"
    tmux send-keys -t "$session" "$command; echo \$? > $pane_marks/$name.tmp && mv $pane_marks/$name.tmp $pane_marks/$name.status" Enter
}

# wait_status SESSION NAME [SECONDS]: waits until NAME's command has ended and prints its status.
wait_status() {
    local session=$1 name=$2 limit=${3:-30} waited=0
    until [ -f "$pane_marks/$name.status" ]; do
        sleep 0.2
        waited=$((waited + 1))
        if [ "$waited" -ge $((limit * 5)) ]; then
            tmux capture-pane -p -t "$session" >&2
            fail "the command '$name' in $session did not end within ${limit}s"
        fi
    done
    cat "$pane_marks/$name.status"
}

# expect_status SESSION NAME STATUS [SECONDS]: waits for NAME's command and fails unless it exited STATUS.
expect_status() {
    local status
    status=$(wait_status "$1" "$2" "${4:-30}")
    [ "$status" = "$3" ] || { tmux capture-pane -p -t "$1" >&2; fail "'$2' in $1 exited $status, expected $3"; }
}

# same_files A B WHAT: fails, showing the difference, unless files A and B are identical.
same_files() {
    cmp -s "$1" "$2" && return 0
    diff "$1" "$2" >&2 || true
    fail "$3"
}

# A free TCP port on loopback.
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }

# card_labels SESSION: how many card labels (a top border starting ╭1─, ╭a─ ...) the pane shows.
card_labels() { tmux capture-pane -p -t "$1" | LC_ALL=C.UTF-8 grep -oE '(╭|┏|╔)[0-9a-zA-Z]' | wc -l; }

# wait_for_cards SESSION COUNT [SECONDS]: waits until COUNT labelled cards have landed.
wait_for_cards() {
    local session=$1 count=$2 limit=${3:-30} waited=0
    until [ "$(card_labels "$session")" -eq "$count" ]; do
        sleep 0.2
        waited=$((waited + 1))
        if [ "$waited" -ge $((limit * 5)) ]; then
            tmux capture-pane -p -t "$session" >&2
            fail "expected $count cards in $session, saw $(card_labels "$session")"
        fi
    done
}

# pick_cards SESSION KEY...: types each card's key, waiting before the next until the card shows
# selected (a heavy border, ┏KEY); the last completes the pick, so the caller waits for its outcome.
pick_cards() {
    local session=$1 key
    shift
    while [ $# -gt 1 ]; do
        key=$1
        shift
        tmux send-keys -t "$session" "$key"
        wait_for "$session" "┏$key"
    done
    tmux send-keys -t "$session" "$1"
}

# printed_bin BIN: the path setgame prints for itself when started as BIN: SwiftPM's shorter
# `.build/CONFIG/setgame` link when it leads to the same binary (see Invocation), else BIN.
printed_bin() {
    local bin=$1 config root short
    config=$(basename "$(dirname "$bin")")
    root=$(dirname "$(dirname "$(dirname "$bin")")")
    short="$root/$config/setgame"
    if [ "$(basename "$root")" = .build ] && [ "$(readlink -f "$short")" = "$(readlink -f "$bin")" ]; then
        echo "$short"
    else
        echo "$bin"
    fi
}

# serve_on_free_port [SERVE OPTIONS]: starts `$bin serve` with seed 42 on a free port ($port)
# with a fresh state folder ($state, its log in $state/serve.log) and returns once it listens.
# On exit the tmux sessions named in $sessions are killed, the server stopped and $state removed.
serve_on_free_port() {
    port=$(free_port)
    state=$(mktemp -d)
    "$bin" serve --port "$port" --seed 42 --data "$state/data" "$@" 2>"$state/serve.log" &
    server=$!
    trap stop_served EXIT
    for _ in $(seq 300); do grep -q listening "$state/serve.log" && break; sleep 0.1; done
    grep -q listening "$state/serve.log" || fail "serve did not start listening"
}

stop_served() {
    for s in "${sessions[@]}"; do tmux kill-session -t "$s" 2>/dev/null || true; done
    kill "$server" 2>/dev/null || true
    wait "$server" 2>/dev/null || true
    rm -rf "$state"
}
