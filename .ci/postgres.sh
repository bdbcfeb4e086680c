#!/usr/bin/env bash
# A throwaway PostgreSQL for one CI run: `start` makes a cluster in a temporary folder, owned by
# the `postgres` user when run as root (PostgreSQL refuses to run as root), listening on a free
# loopback port, and prints `URL FOLDER`; `restart FOLDER` restarts it on the same port (a
# database restarted under play); `stop FOLDER` stops it and deletes the folder.
set -euo pipefail

bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)
[ -x "$bin/initdb" ] || { echo "postgres.sh: PostgreSQL is not installed (apt-get install postgresql)" >&2; exit 1; }

as_owner() {
    if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

case "${1:-}" in
start)
    dir=$(mktemp -d /tmp/setgame-ci-pg.XXXXXX)
    chmod 700 "$dir"
    [ "$(id -u)" = 0 ] && chown postgres: "$dir"
    port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
    as_owner "$bin/initdb" -D "$dir/data" -A trust -U setgame --no-sync >"$dir.initdb.log" 2>&1 \
        || { cat "$dir.initdb.log" >&2; exit 1; }
    as_owner "$bin/pg_ctl" -D "$dir/data" -o "-k $dir -p $port -c listen_addresses=127.0.0.1" -l "$dir/log" -w start >/dev/null
    rm -f "$dir.initdb.log"
    echo "postgresql://setgame@127.0.0.1:$port/postgres $dir"
    ;;
restart)
    # The same port and data: clients see their connections drop and the database come back.
    dir=${2:?usage: postgres.sh restart FOLDER}
    as_owner "$bin/pg_ctl" -D "$dir/data" -m fast -w restart >/dev/null
    ;;
stop)
    dir=${2:?usage: postgres.sh stop FOLDER}
    as_owner "$bin/pg_ctl" -D "$dir/data" -m fast -w stop >/dev/null 2>&1 || true
    rm -rf "$dir"
    ;;
*)
    echo "usage: postgres.sh start | restart FOLDER | stop FOLDER" >&2
    exit 64
    ;;
esac
