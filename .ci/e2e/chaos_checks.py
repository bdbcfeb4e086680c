"""The chaos run's checks (.ci/e2e/chaos.py), read once every node has stopped: the clients' logs
against the journals of the three data folders and the shared store. Each prints what it found;
`check` returns how many findings there are in all (the clients' own included)."""
import glob, json, os


def journals(work, nodes):
    """{match: [(node, path, records)]}: every journal in every node's data folder, live and finished."""
    found = {}
    for name in nodes:
        folder = os.path.join(work, name)
        for path in glob.glob(os.path.join(folder, "*.jsonl")) + glob.glob(os.path.join(folder, "finished", "*.jsonl")):
            with open(path) as f:
                records = [json.loads(line) for line in f if line.strip()]
            if records and records[0].get("type") == "match":
                found.setdefault(records[0]["name"], []).append((name, path, records))
    return found


def check(run, work, pg_url, psql):
    record, findings = run.record, list(run.record.findings)
    kept = journals(work, run.nodes)

    # 1. Every acknowledged action is in its match's journal exactly once, where its ack said;
    # within a journal, numbered records only ever go up (nothing doubled by a replay).
    for match, copies in kept.items():
        for node, path, records in copies:
            seqs = [r["seq"] for r in records if "seq" in r]
            if any(b <= a for a, b in zip(seqs, seqs[1:])):
                findings.append(("journal", f"{path}: numbered records not increasing: {seqs}"))
    acts = {}
    for match, copies in kept.items():
        for node, path, records in copies:
            for r in records:
                if r.get("type") == "act":
                    acts.setdefault((match, r["seq"]), []).append((node, r))
    lost = doubled = 0
    for ack in record.acks:
        found = [(node, r) for node, r in acts.get((ack["match"], ack["seq"]), [])
                 if r.get("action") == ack["action"] and r.get("seat") == ack["seat"] and r.get("card") == ack["card"]]
        if not found:
            lost += 1
            findings.append(("lost", f"acknowledged but not in any journal: {ack}"))
        elif len(found) > 1:
            doubled += 1
            findings.append(("doubled", f"acknowledged once, journaled {len(found)} times: {ack} {found}"))
    print(f"chaos: {len(record.acks)} acknowledged actions checked against {sum(len(c) for c in kept.values())} journals: "
          f"{lost} lost, {doubled} doubled")

    # 2. Every finished game a client was told of is recorded exactly once (when a seat is an
    # account: guests' games are not kept); rated when both seats are accounts, unless no set was
    # taken (then `aborted`, GameRecord+Decision.swift); no game is recorded twice.
    rows = {}
    for line in psql("SELECT match, game, rated, outcome, count(*) FROM games GROUP BY match, game, rated, outcome").splitlines():
        match, game, rated, outcome, count = line.split("|")
        rows.setdefault((match, int(game)), []).append((int(rated), outcome, int(count)))
    told = {}
    for end in record.ends:
        told.setdefault((end["match"], end["game"]), []).append(end)
    for key, ends in sorted(told.items(), key=str):
        got = rows.get(key, [])
        total = sum(count for _, _, count in got)
        if total != (1 if any(e["accounts"] for e in ends) else 0):
            findings.append(("result", f"{key[0]} game {key[1]} ended ({ends[0]['reason']}, told to {len(ends)}) "
                                       f"but the store has {total} rows: {got}"))
        elif total and all(e["accounts"] for e in ends) and got[0][0] != 1 and got[0][1] != "aborted":
            findings.append(("result", f"{key[0]} game {key[1]}: two accounts and a set taken, but recorded unrated: {got}"))
    for key, got in rows.items():
        if sum(count for _, _, count in got) > 1 and key not in told:
            findings.append(("result", f"{key[0]} game {key[1]} recorded {sum(c for _, _, c in got)} times"))
    print(f"chaos: {len(told)} finished games told to the players; {len(rows)} games in the store, "
          f"{sum(c for got in rows.values() for r, _, c in got if r)} rated")

    # 3. Every player back in its seat: each one's match finished (or it sits in it).
    game_zero = {end["player"] for end in record.ends if not end["game"]}
    for player in run.players:
        if player.state != "finished" or player.name in game_zero:
            kind = "unended" if player.state == "seated" else "seat"
            findings.append((kind, f"{player.name} in {player.match}: ended {player.state}; it saw, last:\n    "
                                   + "\n    ".join(player.trace)))
    unfinished = sum(1 for p in run.players if p.state == "seated")
    print(f"chaos: {len(run.players)} players: {sum(1 for p in run.players if p.state == 'finished')} finished, "
          f"{unfinished} seated, {len(run.players) - unfinished - sum(1 for p in run.players if p.state == 'finished')} neither")

    # 4. No match played on two nodes: its journals in one node's folder only, its players seated
    # only through that node's address, and its row (if still there) naming that node.
    homes = dict(line.split("|") for line in psql("SELECT match, node FROM match_homes").splitlines())
    for match, copies in kept.items():
        where = {node for node, _, _ in copies}
        if len(where) > 1:
            findings.append(("two nodes", f"{match} has journals on {sorted(where)}: {[p for _, p, _ in copies]}"))
        elif match in homes and homes[match] not in where:
            findings.append(("two nodes", f"{match}'s row names {homes[match]}, its journal is on {where}"))
    for match, addresses in record.seated_at.items():
        tcp = {a for a in addresses if not a.startswith("unix:")}
        if len(tcp) > 1:
            findings.append(("two nodes", f"{match}: players were seated through {sorted(tcp)}"))
    print(f"chaos: {len(kept)} matches journaled, {len(record.seated_at)} seen seated by their players")

    # 5. Every challenge played or told expired (to both); 6. every request answered (findings
    # of kind "unanswered", made as the clients went).
    outcomes = {}
    for entry in run.challenges:
        kind = entry["outcome"].split(":")[0].split(" (")[0]
        outcomes[kind] = outcomes.get(kind, 0) + 1
    print(f"chaos: challenges: {outcomes}")
    print(f"chaos: the clients counted: {dict(sorted(record.counts.items()))}")
    for node in run.nodes.values():
        with open(node.log, errors="replace") as f:
            text = f.read()
        print(f"chaos: node {node.name}: killed {node.kills} times; its log: {text.count(chr(10))} lines, "
              f"{text.count('lapsed')} saying lapsed")

    kinds = {}
    for kind, text in findings:
        kinds[kind] = kinds.get(kind, 0) + 1
    for kind, text in findings[:200]:
        print(f"FINDING {kind}: {text}")
    if len(findings) > 200:
        print(f"… and {len(findings) - 200} more findings")
    print(f"chaos: findings by kind: {kinds or 'none'}")
    return len(findings)
