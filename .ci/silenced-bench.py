"""Largest ping round trip a player sees while the server (re)reads a 300,000-line silenced file.
Usage: SETGAME=PATH python3 .ci/silenced-bench.py [PORT]   (a benchmark, not a test)"""
import json, os, shutil, socket, subprocess, sys, tempfile, time

binary = os.environ.get("SETGAME", ".build/debug/setgame")
port = int(sys.argv[1]) if len(sys.argv) > 1 else 17390
data = tempfile.mkdtemp(prefix="silenced-")
server = subprocess.Popen([binary, "serve", "--port", str(port), "--data", data], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
try:
    for _ in range(200):
        try:
            socket.create_connection(("127.0.0.1", port)).close(); break
        except OSError: time.sleep(0.05)
    def client(name):
        s = socket.create_connection(("127.0.0.1", port)); f = s.makefile("rb")
        s.sendall((json.dumps({"type": "join", "name": name, "match": "m"}) + "\n").encode())
        return s, f
    def until(f, pred):
        while True:
            line = f.readline()
            if not line: sys.exit("the server closed the connection")
            m = json.loads(line)
            if pred(m): return m
    a, af = client("ann"); b, bf = client("bob")
    until(bf, lambda m: m.get("type") == "snapshot")
    with open(os.path.join(data, "silenced"), "w") as out:
        for i in range(300_000):
            out.write("address 10.%d.%d.%d\n" % (i >> 16, (i >> 8) & 255, i & 255))
    print("silenced file: %.1f MiB" % (os.path.getsize(os.path.join(data, "silenced")) / 2**20))
    time.sleep(1.1)
    worst = 0.0
    said = time.perf_counter()
    a.sendall(b'{"type":"chat","text":"hello","id":"c"}\n')
    for n in range(150):
        t = time.perf_counter()
        b.sendall((json.dumps({"type": "ping", "time": n}) + "\n").encode())
        until(bf, lambda m: m.get("type") == "pong" and m.get("clientTime") == n)
        worst = max(worst, time.perf_counter() - t)
        time.sleep(0.01)
    print("worst ping round trip over the first 150 pings after the line: %.1f ms" % (worst * 1000))
    answer = until(af, lambda m: m.get("id") == "c")
    print("the line's answer (%s) after %.1f s" % (answer.get("code", answer.get("type")), time.perf_counter() - said))
finally:
    server.terminate(); server.wait()
    shutil.rmtree(data, ignore_errors=True)
