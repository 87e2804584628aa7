#!/usr/bin/env python3
"""The 5-piece materials self-play games reach most (docs/records/tablebases.md, "Five pieces").

Usage: dev/count-five-piece.py DATA.txt...  (the position files of `doushou selfplay`)
"""
import sys, collections
order = "ELTPWDCR"
def material(board):
    red = sorted([c for c in board if c.isupper()], key=order.index)
    blue = sorted([c.upper() for c in board if c.islower()], key=order.index)
    a, b = "".join(red), "".join(blue)
    if (len(b), b) > (len(a), a):  # colour swap: same ending
        a, b = b, a
    return a + "v" + b.lower()
plies = collections.Counter(); entries = collections.Counter(); games = 0
for f in sys.argv[1:]:
    prev = None
    for line in open(f):
        if line.startswith("#"): prev = None; continue
        board = line.split()[0].replace("/", "")
        board = "".join(c for c in board if c.isalpha())
        n = len(board)
        m = material(board) if n == 5 else None
        if m:
            plies[m] += 1
            if m != prev: entries[m] += 1
        prev = m
print("distinct 5-piece materials:", len(plies), "plies in 5-piece:", sum(plies.values()), "entries:", sum(entries.values()))
for m, c in entries.most_common(25):
    print(f"{m:10} entries {c:6} plies {plies[m]:7}")
