"""Load for make-busy.sh: an interpreter doing varied work (json, regexes, sorting, dicts) through
recursion of varying depth, so a system-wide recording sees CPython's eval loop under many
distinct callchains. Runs for SECONDS (first argument)."""
import json
import random
import re
import sys
import time

WORD = re.compile(r"[a-z]+[0-9]*")


def leaf(r):
    k = r.randrange(4)
    if k == 0:
        return len(json.dumps({str(i): [i, i * 2, "x" * (i % 7)] for i in range(60)}))
    if k == 1:
        return sorted(r.random() for _ in range(300))[0] > 0.5
    if k == 2:
        d = {}
        for i in range(300):
            d.setdefault(r.randrange(64), []).append(i)
        return len(d)
    return len(WORD.findall(" ".join("%c%d" % (97 + r.randrange(26), r.randrange(10)) for _ in range(100))))


def even(r, depth):
    return descend(r, depth - 1) + 1


def odd(r, depth):
    return descend(r, depth - 1) ^ 3


def descend(r, depth):
    if depth == 0:
        return int(leaf(r))
    return even(r, depth) if depth % 2 == 0 else odd(r, depth)


def main():
    end = time.monotonic() + float(sys.argv[1])
    r = random.Random(int(sys.argv[2]) if len(sys.argv) > 2 else 1)
    s = 0
    while time.monotonic() < end:
        s += descend(r, r.randrange(24))
    print("done" if s != 42 else "")


main()
