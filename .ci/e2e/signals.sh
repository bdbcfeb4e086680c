#!/usr/bin/env bash
# `serve` stops cleanly (goodbye, journals closed, exit 0) on SIGTERM or SIGINT however soon after
# it announced its port the signal comes: a signal that arrived before the server watched for it
# used to be lost (the server hung) or to kill it (exit -15).
set -euo pipefail
bin="${SETGAME:?path to the setgame binary}"
. "$(dirname "$0")/../lib.sh"
python3 - "$bin" <<'PY' || fail "serve did not stop cleanly on an early signal"
import signal, subprocess, sys, tempfile
binary, problems = sys.argv[1], []
for attempt in range(40):
    number = signal.SIGTERM if attempt % 2 == 0 else signal.SIGINT
    data = tempfile.mkdtemp(prefix="setgame-signals-")
    server = subprocess.Popen([binary, "serve", "--port", "0", "--data", data],
                              stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    if "serving on" not in server.stdout.readline():
        problems.append(f"attempt {attempt}: no announcement")
    server.send_signal(number)
    try:
        status = server.wait(timeout=20)
        if status != 0:
            problems.append(f"attempt {attempt}: {signal.Signals(number).name} ended it with status {status}")
    except subprocess.TimeoutExpired:
        server.kill()
        server.wait()
        problems.append(f"attempt {attempt}: still running 20 s after {signal.Signals(number).name}")
for problem in problems:
    print(problem, file=sys.stderr)
sys.exit(1 if problems else 0)
PY
# SIGHUP (a closed terminal, a log rotation) is said and ignored; with --log-format json every
# line on either stream, the announcements and a fatal start included, is one JSON object.
python3 - "$bin" <<'PY' || fail "serve did not outlive SIGHUP, or a --log-format json line was not JSON"
import json, signal, subprocess, sys, tempfile, time
binary, problems = sys.argv[1], []
data = tempfile.mkdtemp(prefix="setgame-hup-")
server = subprocess.Popen([binary, "serve", "--port", "0", "--data", data, "--log-format", "json"],
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
first = json.loads(server.stdout.readline())
port = first["message"].rsplit(":", 1)[1]
if "serving on" not in first["message"]:
    problems.append(f"announcement: {first}")
server.send_signal(signal.SIGHUP)
said = None
while said is None:
    line = json.loads(server.stderr.readline())
    if "SIGHUP" in line["message"]:
        said = line["message"]
if server.poll() is not None:
    problems.append(f"SIGHUP ended it with status {server.returncode}")
# Still serving: a second server on the same port cannot start, and says so in JSON.
second = subprocess.run([binary, "serve", "--port", port, "--data", tempfile.mkdtemp(prefix="setgame-hup-"), "--log-format", "json"],
                        capture_output=True, text=True, timeout=60)
fatal = [json.loads(line) for line in second.stderr.splitlines()]
if second.returncode != 1 or not fatal or "setgame serve:" not in fatal[-1]["message"]:
    problems.append(f"a second server on port {port}: status {second.returncode}, {second.stderr!r}")
server.send_signal(signal.SIGTERM)
if server.wait(timeout=20) != 0:
    problems.append(f"SIGTERM after SIGHUP: status {server.returncode}")
for line in server.stdout.read().splitlines() + server.stderr.read().splitlines():
    json.loads(line)
for problem in problems:
    print(problem, file=sys.stderr)
print(f"SIGHUP said as: {said}")
sys.exit(1 if problems else 0)
PY
echo "signals: ok (40 early signals, each a clean exit 0; SIGHUP said and ignored; every JSON line an object)"
