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
echo "signals: ok (40 early signals, each a clean exit 0)"
