#!/usr/bin/env bash
# The accounts store in the data folder as an operator meets it (issue 45, items 13-15 and 17),
# with the real binary: a clean stop leaves accounts.sqlite3 complete and alone; `--check` finds a
# damaged store; memory may be named as the store beside a data folder; a missing store beside
# journals is refused unless --empty-store accepts it.
set -euo pipefail
bin="${SETGAME:?path to the setgame binary}"
. "$(dirname "$0")/../lib.sh"
out=$(mktemp -d)
server=
trap '[ -n "$server" ] && kill "$server" 2>/dev/null; rm -rf "$out"' EXIT

# start DIR [ARGS...]: serve on DIR in the background until it says where it listens.
start() {
    local dir=$1; shift
    # The last server's "serving on" must not be read as this one's: the redirection below
    # empties the file only once the child runs, after this shell may already have looked.
    rm -f "$out/stdout" "$out/stderr"
    "$bin" serve --port 0 --data "$dir" "$@" >"$out/stdout" 2>"$out/stderr" &
    server=$!
    for _ in $(seq 300); do grep -q 'serving on' "$out/stdout" 2>/dev/null && return; sleep 0.1; done
    fail "serve did not start: $(cat "$out/stderr")"
}
stop() { kill -TERM "$server"; wait "$server" || fail "serve exited $? on SIGTERM"; server=; }

# Item 17: the WAL is folded in at every clean stop (it was left behind about one stop in two).
for run in 1 2 3 4 5; do
    start "$out/d"
    [ -e "$out/d/accounts/accounts.sqlite3-wal" ] || fail "no WAL while serving: the check below proves nothing"
    stop
    for leftover in -wal -shm; do
        [ ! -e "$out/d/accounts/accounts.sqlite3$leftover" ] || fail "stop $run left accounts.sqlite3$leftover"
    done
done
cp "$out/d/accounts/accounts.sqlite3" "$out/alone.sqlite3"
[ "$(sqlite3 -readonly "$out/alone.sqlite3" 'SELECT COUNT(*) FROM schema_version')" -gt 0 ] \
    || fail "the file alone does not hold the schema"
echo "data folder: five clean stops left accounts.sqlite3 alone and complete"

# Item 14: --check opens the store and checks it.
"$bin" serve --check --data "$out/d" >/dev/null 2>"$out/check.err" || fail "--check refused a sound store: $(cat "$out/check.err")"
cp -a "$out/d" "$out/damaged"
printf 'this is not SQLite' | dd of="$out/damaged/accounts/accounts.sqlite3" bs=1 conv=notrunc status=none
if "$bin" serve --check --data "$out/damaged" >/dev/null 2>"$out/check.err"; then fail "--check passed a damaged store"; fi
grep -q 'cannot open the store.*accounts.sqlite3.*not a database' "$out/check.err" || fail "--check said: $(cat "$out/check.err")"
echo "data folder: --check refuses a store with a damaged header: $(cat "$out/check.err")"

# Item 13: memory named as the store beside a data folder.
start "$out/d" --store :memory:
stop
echo "data folder: --store :memory: serves beside --data"

# Item 15: a missing store beside journals.
mkdir -p "$out/journals/accounts"
printf '{}\n' >"$out/journals/friday.jsonl"
if "$bin" serve --port 0 --data "$out/journals" >/dev/null 2>"$out/missing.err"; then fail "serve started without its store"; fi
grep -q 'accounts.sqlite3 is missing.*backup.*--empty-store' "$out/missing.err" || fail "serve said: $(cat "$out/missing.err")"
if "$bin" serve --check --data "$out/journals" >/dev/null 2>"$out/missing.err"; then fail "--check passed a missing store"; fi
[ ! -e "$out/journals/accounts/accounts.sqlite3" ] || fail "a refused start made an empty store"
start "$out/journals" --empty-store
grep -q 'starting an EMPTY accounts store' "$out/stderr" || fail "--empty-store said nothing: $(cat "$out/stderr")"
stop
echo "data folder: a missing store beside journals is refused, and --empty-store says it loudly"

# A folder that cannot be made is refused naming what stops it: a parent that cannot be gone
# through (0700, another user's), not a writable-or-not guess at an ancestor. Only root can
# play another user here.
if [ "$(id -u)" = 0 ] && command -v runuser >/dev/null; then
    open=$(mktemp -d /tmp/setgame-perm.XXXXXX)
    chmod 755 "$open"
    cp "$bin" "$open/setgame" && chmod 755 "$open/setgame"
    mkdir -m 700 "$open/locked"
    said=$(runuser -u nobody -- "$open/setgame" serve --check --data "$open/locked/a/data" 2>&1 || true)
    rm -rf "$open"
    grep -q "$open/locked cannot be gone through" <<<"$said" || fail "a locked parent was not named: $said"
    echo "data folder: a parent that cannot be gone through is named"
fi
