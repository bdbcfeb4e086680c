#!/usr/bin/env bash
# The hosting recipes in contrib/: the systemd unit's and the container's command lines are valid
# `setgame serve` command lines (checked with --check), the unit passes systemd-analyze where the
# machine has it, and the image builds where Docker runs and SETGAME_DOCKER=1.
set -euo pipefail
bin="${SETGAME:?path to the setgame binary}"
. "$(dirname "$0")/../lib.sh"
root="$(cd "$(dirname "$0")/../.." && pwd)"
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

# The unit's ExecStart, with our binary and a temporary data folder in place of the installed ones.
exec_start=$(sed -n 's/^ExecStart=//p' "$root/contrib/setgame.service")
[ -n "$exec_start" ] || fail "no ExecStart in contrib/setgame.service"
case "$exec_start" in /usr/local/bin/setgame\ serve\ *) ;; *) fail "ExecStart does not run 'setgame serve': $exec_start" ;; esac
read -r -a words <<<"$exec_start"
words[0]="$bin"
for i in "${!words[@]}"; do [ "${words[$i]}" = /var/lib/setgame ] && words[$i]="$out/unit-data"; done
"${words[@]}" --check >"$out/unit.txt" || fail "the unit's command line is not valid: $(cat "$out/unit.txt")"
grep -q 'would listen on 0.0.0.0:7380' "$out/unit.txt" || fail "unexpected --check output: $(cat "$out/unit.txt")"
grep -q 'LimitNOFILE=' "$root/contrib/setgame.service" || fail "the unit sets no LimitNOFILE"
echo "unit: $(head -1 "$out/unit.txt")"

# The unit's ExecStart for one of several nodes (commented out), checked the same way.
node_start=$(sed -n 's/^#ExecStart=//p' "$root/contrib/setgame.service")
[ -n "$node_start" ] || fail "no node ExecStart (commented) in contrib/setgame.service"
read -r -a words <<<"$node_start"
words[0]="$bin"
for i in "${!words[@]}"; do [ "${words[$i]}" = /var/lib/setgame ] && words[$i]="$out/node-data"; done
"${words[@]}" --check >"$out/node.txt" || fail "the unit's node command line is not valid: $(cat "$out/node.txt")"
grep -q 'node a, where the other nodes send its players: a.play.example.org:7380' "$out/node.txt" || fail "unexpected --check output: $(cat "$out/node.txt")"
echo "unit, as a node: $(tail -1 "$out/node.txt")"
# contrib/haproxy.cfg opens every connection with a PROXY header: a node behind it without
# --proxy-from fails every health check.
if grep -q 'send-proxy-v2' "$root/contrib/haproxy.cfg"; then
    grep -q -- '--proxy-from' <<<"$node_start" || fail "the unit's node line has no --proxy-from, which contrib/haproxy.cfg needs"
    grep -A2 -- '--node a' "$root/contrib/Dockerfile" | grep -q -- '--proxy-from' || fail "the Dockerfile's node line has no --proxy-from"
fi

# --check must refuse what serve would refuse.
if "$bin" serve --log-format xml --check >/dev/null 2>&1; then fail "--check accepted a bad --log-format"; fi

if command -v systemd-analyze >/dev/null 2>&1; then
    sed "s#^ExecStart=/usr/local/bin/setgame#ExecStart=$bin#" "$root/contrib/setgame.service" >"$out/setgame.service"
    if systemd-analyze verify "$out/setgame.service" >"$out/verify.txt" 2>&1; then
        echo "unit: systemd-analyze verify passed"
    elif grep -qiE 'System has not been booted|Failed to connect|Failed to initialize|not running' "$out/verify.txt"; then
        echo "unit: systemd-analyze cannot run here ($(head -1 "$out/verify.txt")); skipped"
    else
        cat "$out/verify.txt" >&2
        fail "systemd-analyze verify rejected the unit"
    fi
fi

# The container's ENTRYPOINT, checked the same way.
entry=$(sed -n 's/^ENTRYPOINT \[\(.*\)\]$/\1/p' "$root/contrib/Dockerfile" | tr -d '"' | tr ',' ' ')
[ -n "$entry" ] || fail "no ENTRYPOINT in contrib/Dockerfile"
read -r -a words <<<"$entry"
words[0]="$bin"
for i in "${!words[@]}"; do [ "${words[$i]}" = /data ] && words[$i]="$out/image-data"; done
"${words[@]}" --check >/dev/null || fail "the image's command line is not valid: $entry"
grep -qE '^FROM swift:[0-9.]+' "$root/contrib/Dockerfile" || fail "the image is not built with the official Swift image"
grep -q 'swift build -c release' "$root/contrib/Dockerfile" || fail "the image does not build the release binary"
echo "image: ENTRYPOINT valid"
# The build stage replayed without Docker: exactly what it COPYs, into a folder of its own, then its
# own `swift build` line. A manifest that names a folder the image lacks fails here, not in a user's build.
stage=$(sed -n '1,/^FROM .* AS build/d; /^FROM /q; p' "$root/contrib/Dockerfile")
mkdir -p "$out/image-src"
while read -r source target; do
    [ -e "$root/$source" ] || fail "the Dockerfile copies $source, which the package does not have"
    case "$target" in */ | .) target="$target/$(basename "$source")" ;; esac
    mkdir -p "$out/image-src/$(dirname "$target")"
    cp -R "$root/$source" "$out/image-src/$target"
done < <(sed -n 's/^COPY \([^-][^ ]*\) \([^ ]*\)$/\1 \2/p' <<<"$stage")
# Each RUN instruction is its own command (one line each); the one that builds is replayed (the
# packages another installs are on this machine already: .ci/run installs them).
runs=$(sed -n '/^RUN /,/[^\\]$/p' <<<"$stage" \
    | awk '/^RUN /{ if (command != "") print command; command = "" } { sub(/^RUN /, ""); sub(/\\$/, ""); command = command $0 " " } END { print command }')
build=$(grep -F 'swift build -c release' <<<"$runs" || true)
[[ "$build" == *"swift build -c release"* ]] || fail "the build stage's RUN is not a release build: $build"
# /out stands for the image's root folder: install it under the temporary folder instead.
build=${build//\/out\//$out/image-out/}
(cd "$out/image-src" && bash -c "$build") >"$out/image-build.txt" 2>&1 \
    || { tail -20 "$out/image-build.txt" >&2; fail "the Dockerfile's build stage fails on exactly the files it copies"; }
[ -x "$out/image-out/setgame" ] || fail "the build stage did not install the binary"
echo "image: build stage replayed without Docker"
if [ "${SETGAME_DOCKER:-0}" = 1 ] && docker info >/dev/null 2>&1; then
    docker build -q -f "$root/contrib/Dockerfile" -t setgame-ci "$root" >/dev/null || fail "docker build failed"
    echo "image: built"
else
    echo "image: not built (set SETGAME_DOCKER=1 where Docker runs)"
fi
echo "contrib ok"
