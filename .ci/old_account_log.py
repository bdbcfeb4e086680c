"""The accounts log of the version before the database (`accounts.jsonl`), written for the benches
that import it (.ci/accounts-bench.py, .ci/import-bench.py, .ci/e2e/import_kill.py)."""
import random


def write_log(path, accounts, games, seed=1, rename_every=500):
    """An old accounts log: accounts, then rated duels (a rename every `rename_every` games; 0: none),
    as the old server wrote them."""
    rng = random.Random(seed)
    ratings = [(1500.0, 350.0)] * accounts
    seat = ('{"account":%d,"after":{"r":"%r","rd":"%r","vol":"0.06"},"before":{"r":"%r","rd":"%r","vol":"0.06"},'
            '"name":"p%d","points":%d,"sets":%d,"setTimes":[%s]}')
    # Set times drawn from a pool: the generator stays fast, each account's times still spread.
    pool = {n: [",".join(str(rng.randrange(1000, 20000)) for _ in range(n)) for _ in range(997)] for n in (11, 14)}
    with open(path, "w") as log:
        for i in range(accounts):
            log.write('{"id":%d,"identity":"key:%064x","name":"p%d","type":"account","wall":1795000000}\n' % (i, i, i))
        for g in range(games):
            a = rng.randrange(accounts)
            b = (a + 1 + rng.randrange(accounts - 1)) % accounts
            ra, rb = ratings[a], ratings[b]
            na, nb = (ra[0] + 8.25, max(45.0, ra[1] * 0.97)), (rb[0] - 8.25, max(45.0, rb[1] * 0.97))
            ratings[a], ratings[b] = na, nb
            log.write('{"commitment":"%064x","durationMs":300000,"endedAt":%d,"game":1,"journal":"duel-%d.jsonl","match":"duel-%d",'
                      '"mode":"duel","outcome":"win","players":[%s,%s],"rated":true,"reason":"no_sets_left","type":"game",'
                      '"variant":"classic","wall":%d,"winner":0}\n'
                      % (rng.getrandbits(256), g * 1000, g, g, seat % (a, na[0], na[1], ra[0], ra[1], a, 28, 14, rng.choice(pool[14])),
                         seat % (b, nb[0], nb[1], rb[0], rb[1], b, 22, 11, rng.choice(pool[11])), 1795000000 + g))
            if rename_every and g % rename_every == rename_every - 1:
                log.write('{"id":%d,"name":"r%d","type":"rename"}\n' % (a, g))
