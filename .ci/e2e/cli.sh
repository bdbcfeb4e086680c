#!/usr/bin/env bash
# The executable's contract: help, version, rules, and exit status 64 for usage errors.
set -euo pipefail
bin="${SETGAME:?path to the setgame binary}"
fail() { echo "FAIL: $*" >&2; exit 1; }

"$bin" --help | grep -q '^usage: setgame <command>' || fail "--help"
"$bin" --version | grep -qE '^setgame [0-9]+\.[0-9]+\.[0-9]+$' || fail "--version"
"$bin" rules | grep -q 'claim window' || fail "rules"
"$bin" rules --mode ultra | grep -q 'VARIANT: ULTRASET' || fail "rules --mode ultra"
"$bin" rules --mode chain | grep -q 'VARIANT: SET-CHAIN' || fail "rules --mode chain"
set +e
"$bin" rules --mode poker 2>/dev/null; [ $? -eq 64 ] || fail "an unknown --mode must exit 64"
"$bin" no-such-command 2>/dev/null; [ $? -eq 64 ] || fail "unknown command must exit 64"
"$bin" rules --claim-window-ms 2>/dev/null; [ $? -eq 64 ] || fail "missing value must exit 64"
"$bin" rules --claim-window-ms -5 2>/dev/null; [ $? -eq 64 ] || fail "bad value must exit 64"
set -e
echo "cli: ok"
