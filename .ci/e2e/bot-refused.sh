#!/usr/bin/env bash
# `setgame bot` refused by the server (issue 16): a name too long, a bad match name, a full match.
# It never claims to have joined, exits 1 at once with the server's words, and never hangs.
set -euo pipefail
bin="${SETGAME:?path to the setgame binary}"
. "$(dirname "$0")/../lib.sh"
out=$(mktemp -d)
"$bin" serve --port 0 --data "$out/data" >"$out/serve.out" 2>"$out/serve.err" &
server=$!
bots=()
cleanup() { for pid in "${bots[@]}" $server; do kill "$pid" 2>/dev/null || true; done; }
trap cleanup EXIT
for _ in $(seq 300); do grep -q 'serving on' "$out/serve.out" 2>/dev/null && break; sleep 0.1; done
port=$(sed -n 's/.*serving on 127.0.0.1:\([0-9]*\).*/\1/p' "$out/serve.out")
[ -n "$port" ] || fail "serve did not say where it listens"

refused() {  # refused WHAT EXPECTED-TEXT ARGS...: the bot must exit 1 saying EXPECTED-TEXT
    local what=$1 says=$2 status=0
    shift 2
    timeout 20 "$bin" bot "127.0.0.1:$port" "$@" >"$out/bot.out" 2>"$out/bot.err" || status=$?
    [ "$status" -eq 1 ] || { cat "$out/bot.err" >&2; fail "bot with $what exited $status, expected 1"; }
    ! grep -q joined "$out/bot.out" || fail "bot with $what said it joined"
    grep -qF "the server refused to seat it: $says" "$out/bot.err" || { cat "$out/bot.err" >&2; fail "bot with $what did not give the server's reason"; }
}
refused "a 33-character name" '"name" must be 1-24 printable characters' --name "$(printf 'a%.0s' $(seq 33))"
refused "a bad match name" '"match" must be 1-32 letters' --match 'bad/name'
for seat in 1 2; do
    "$bin" bot "127.0.0.1:$port" --match full --name "sitter$seat" >"$out/sitter$seat.out" 2>&1 &
    bots+=($!)
done
for _ in $(seq 300); do grep -q joined "$out/sitter1.out" && grep -q joined "$out/sitter2.out" && break; sleep 0.1; done
grep -q 'joined full' "$out/sitter2.out" || fail "a bot that joined did not say so"
refused "a full match" 'Match "full" has no free seat' --match full
trap - EXIT
cleanup
wait 2>/dev/null || true
rm -rf "$out"
echo "bot-refused: exit 1 with the server's reason for a long name, a bad match name and a full match"
