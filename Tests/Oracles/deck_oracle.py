#!/usr/bin/env python3
"""An independent port of setgame's seeded deal (SplitMix64 driving a Fisher-Yates pass with
rejection sampling), written from the algorithm's published description rather than from the Swift
code. `.ci/e2e/deck-oracle.sh` checks that the tables pinned in DeckTests.swift are what it deals.

usage: deck_oracle.py SEED [COUNT]   prints the ids of the first COUNT cards (default 12)
"""
import sys

MASK = (1 << 64) - 1


def splitmix64(seed):
    state = seed & MASK
    while True:
        state = (state + 0x9E3779B97F4A7C15) & MASK
        z = state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
        yield z ^ (z >> 31)


def uniform(generator, bound):
    # Values at or above the largest multiple of bound would favour the low remainders.
    limit = MASK - MASK % bound
    while True:
        value = next(generator)
        if value < limit:
            return value % bound


def deal(seed):
    generator = splitmix64(seed)
    cards = list(range(81))
    for i in range(80, 0, -1):
        j = uniform(generator, i + 1)
        cards[i], cards[j] = cards[j], cards[i]
    return cards


if __name__ == "__main__":
    seed = int(sys.argv[1])
    count = int(sys.argv[2]) if len(sys.argv) > 2 else 12
    print(", ".join(str(card) for card in deal(seed)[:count]))
