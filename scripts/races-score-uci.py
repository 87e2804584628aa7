#!/usr/bin/env python3
"""Score any engine speaking protocol.md against the den-race suite.

`doushou races score` searches with the engine built into the binary; this
script asks an engine program instead (an older doushou, for the "before"
figures), one `go LIMIT` per position after `ucinewgame`, and counts
as `races score` does: held (a move of the entry's holds), the game's
mistake, or another losing move.

    scripts/races-score-uci.py PROGRAM SUITE "movetime 200" [--jobs N]

LIMIT is what follows `go`: `movetime 20`, `depth 8`, `nodes 100000`.
"""
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor


def read_suite(path):
    """The entries: (rules settings, position, mistake, holds)."""
    rules, entries = [], []
    for raw in open(path):
        line = raw.strip()
        if line.startswith("# rules:"):
            rules = [w.split("=", 1) for w in line[len("# rules:"):].split()]
        elif line and not line.startswith("#"):
            position, mistake, hold = (p.strip() for p in line.split(";"))
            entries.append((rules, position, mistake.split()[1], hold.split()[1:]))
    return entries


def score_part(program, entries, limit):
    """Searches each entry with one engine process; answers the moves chosen."""
    engine = subprocess.Popen([program], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                              stderr=subprocess.DEVNULL, text=True, bufsize=1)

    def ask(lines, until):
        for l in lines:
            engine.stdin.write(l + "\n")
        for out in engine.stdout:
            if out.startswith(until):
                return out.split()

    ask(["uci"], "uciok")
    answers = []
    for rules, position, _, _ in entries:
        setup = [f"setoption name {k} value {v}" for k, v in rules]
        ask(setup + ["ucinewgame", f"position fen {position}", "isready"], "readyok")
        answers.append(ask([f"go {limit}"], "bestmove")[1])
    engine.stdin.write("quit\n")
    engine.wait()
    return answers


def main():
    args = sys.argv[1:]
    jobs = 2
    if "--jobs" in args:
        i = args.index("--jobs")
        jobs = int(args[i + 1])
        del args[i:i + 2]
    if len(args) != 3:
        sys.exit(__doc__)
    program, suite, limit = args
    entries = read_suite(suite)
    parts = [entries[j::jobs] for j in range(jobs)]
    with ThreadPoolExecutor(jobs) as pool:
        results = list(pool.map(lambda p: score_part(program, p, limit), parts))
    held = mistakes = 0
    for part, answers in zip(parts, results):
        for (_, _, mistake, holds), best in zip(part, answers):
            held += best in holds
            mistakes += best == mistake
    total = len(entries)
    print(f"held {held} of {total} ({100 * held / total:.1f} %), the game's mistake {mistakes}, "
          f"another losing move {total - held - mistakes}")


if __name__ == "__main__":
    main()
