"""Where a door login's time goes, from `strace -f -ttt` of the door's sshd (.ci/door-bench).

Reads the trace of a run of logins and their times (TIMES: a line "START END" per login, the ssh
command's start and the bench seeing the cards, in ns since the epoch; the logins one after
another) and prints, for each stage, the median time from starting `ssh` to it. A stage a login's
part of the trace does not show is left out of that login's figures.
Usage: python3 door-trace.py DOOR_SOCKET TRACE TIMES
"""
import re
import statistics
import sys

LINE = re.compile(r"^(\d+)\s+(\d+\.\d+)\s+(.*)$")

# (label, test on (pid, call text, what the stage list knows so far)), in the order they happen.
STAGES = [
    "sshd accepts the TCP connection",
    "sshd runs the key command (1st: is the key allowed)",
    "sshd logs the login accepted (the key signed)",
    "sshd's session runs the ForceCommand's shell",
    "the shell starts setgame door",
    "the door connects to the server's door socket",
    "the door reads its joined answer",
    "the door writes the first frame with the table",
    "the door writes its last frame (the twelve cards in place)",
]


def stages(lines, socket, start, end):
    """The time of each stage in one trace, in seconds since the epoch (None when not seen), up
    to `end`, when the bench saw the cards (what the door writes as it is hung up comes after)."""
    found = [None] * len(STAGES)
    door_pid = None
    joined_at = None
    last_frame = None
    for pid, at, call in lines:
        if at < start:
            continue
        if at > end:
            break

        def mark(i):
            if found[i] is None:
                found[i] = at

        if re.match(r"accept4?\(\d+, \{sa_family=AF_INET", call) and "= -1" not in call:
            mark(0)
        elif call.startswith("execve(") and "setgame-door-keys" in call.split(",")[0]:
            mark(1)
        elif call.startswith("write(") and "Accepted publickey" in call:
            mark(2)
        elif call.startswith('execve("/bin/sh"') or call.startswith('execve("/usr/bin/sh"'):
            mark(3)
        elif call.startswith("execve(") and re.search(r'setgame", \[[^]]*"door"', call):
            mark(4)
            door_pid = pid
        elif pid == door_pid and call.startswith("connect(") and socket in call:
            mark(5)
        elif pid == door_pid and call.startswith("read(") and '\\"type\\":\\"joined\\"' in call and found[5] is not None:
            if joined_at is None:
                joined_at = at
                mark(6)
        elif pid == door_pid and call.startswith("write(1,") and joined_at is not None:
            # The frame after the joined answer that draws more than the scoreboard: the table.
            size = re.search(r"= (\d+)$", call)
            if size and int(size.group(1)) > 1500 and found[7] is None:
                mark(7)
            last_frame = at
    found[8] = last_frame
    return found


UNFINISHED = " <unfinished ...>"
RESUMED = re.compile(r"^<\.\.\. \w+ resumed>\s?(.*)$")


def calls(trace):
    """Each call of the trace as (pid, time, text). A call another process interrupted is written
    in two lines, "accept4(3, <unfinished ...>" and "<... accept4 resumed>{sa_family=...} = 5":
    they are joined, at the time it returned (on a loaded machine sshd's accept came apart so,
    and the stage was not seen)."""
    lines, begun = [], {}
    for raw in open(trace, errors="replace"):
        m = LINE.match(raw.rstrip("\n"))
        if not m:
            continue
        pid, at, call = m.group(1), float(m.group(2)), m.group(3)
        if call.endswith(UNFINISHED):
            begun[pid] = call[: -len(UNFINISHED)]
            continue
        resumed = RESUMED.match(call)
        if resumed and pid in begun:
            call = begun.pop(pid).rstrip() + " " + resumed.group(1).lstrip()
        lines.append((pid, at, call))
    return lines


def main():
    socket, trace, times = sys.argv[1:4]
    lines = calls(trace)
    lines.sort(key=lambda line: line[1])
    logins = [tuple(int(x) / 1e9 for x in row.split()) for row in open(times) if row.strip()]
    rows = [[] for _ in STAGES]
    steps = [[] for _ in STAGES]
    totals = []
    for start, end in logins:
        totals.append((end - start) * 1000)
        previous = start
        for i, at in enumerate(stages(lines, socket, start, end)):
            if at is not None:
                rows[i].append((at - start) * 1000)
                steps[i].append((at - previous) * 1000)
                previous = at
    print(f"where the time goes (medians of {len(logins)} logins through an sshd under strace), ms from"
          " starting ssh, and since the stage before in the same login:")
    for label, values, step in zip(STAGES, rows, steps):
        figure = f"{statistics.median(values):7.0f} {statistics.median(step):+6.0f}" if values else "      -      -"
        print(f"  {figure}  {label}")
    print(f"  {statistics.median(totals):7.0f}         the bench sees the twelve cards in place (tmux)")


if __name__ == "__main__":
    main()
