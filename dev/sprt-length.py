#!/usr/bin/env python3
"""How an opening suite shapes a match: draws, spread and SPRT length.

Reads `doushou match --json` records of two engines (openings played twice,
colours swapped, as the runner plays them) and prints, per record: games,
draw rate, the pentanomial pair counts, the spread of a pair's score, the
Elo with its 95 % interval, and how many pairs an SPRT needs to a verdict:
once along the record's own order, and as the mean and median of 2,000
runs that draw pairs at random from the record's pentanomial (so the
figure does not hang on one order).

    dev/sprt-length.py new.json random7.json --elo0 0 --elo1 50

The test is the runner's (src/tools/matches/stats.rs): the generalised SPRT
over game pairs, alpha = beta = 0.05.
"""

import argparse
import functools
import json
import math
import random
import statistics

PAIR_SCORES = [0.0, 0.25, 0.5, 0.75, 1.0]
MOST_PAIRS = 100_000
"""Pairs a drawn run may take before it counts as no verdict."""
POINTS = {"1-0": 1.0, "0-1": 0.0, "1/2-1/2": 0.5}


def score_from_elo(elo):
    return 1.0 / (1.0 + 10 ** (-elo / 400.0))


def elo_from_score(score):
    score = min(max(score, 1e-9), 1 - 1e-9)
    return -400.0 * math.log10(1.0 / score - 1.0)


def most_likely_with_mean(p, mean):
    """The distribution with mean `mean` closest to p (as the runner's)."""
    devs = [x - mean for x in PAIR_SCORES]
    lo = -1.0 / max(devs) + 1e-12
    hi = -1.0 / min(devs) - 1e-12
    for _ in range(60):
        lam = (lo + hi) / 2
        gap = sum(pi * d / (1 + lam * d) for pi, d in zip(p, devs))
        if gap > 0:
            lo = lam
        else:
            hi = lam
    lam = (lo + hi) / 2
    return [pi / (1 + lam * d) for pi, d in zip(p, devs)]


@functools.lru_cache(maxsize=None)
def llr(counts, s0, s1):
    n = sum(counts)
    if n == 0:
        return 0.0
    seen = [c if c > 0 else 1e-3 for c in counts]
    total = sum(seen)
    freq = [c / total for c in seen]
    h0 = most_likely_with_mean(freq, s0)
    h1 = most_likely_with_mean(freq, s1)
    return n * sum(f * math.log(b / a) for f, a, b in zip(freq, h0, h1))


def pairs_to_verdict(pair_outcomes, s0, s1, bound):
    """Pairs played when the LLR leaves (-bound, bound), and the verdict."""
    counts = [0] * 5
    for n, outcome in enumerate(pair_outcomes, 1):
        counts[outcome] += 1
        if sum(1 for c in counts if c) < 2:
            continue  # no variance yet: the runner gives no verdict
        value = llr(tuple(counts), s0, s1)
        if value >= bound:
            return n, "H1"
        if value <= -bound:
            return n, "H0"
    return None, None


def pair_outcomes(record, first):
    """Each pair's points for `first` (0 to 2 in halves), in the record's order."""
    games = sorted(record["games"], key=lambda g: g["round"])
    out = []
    for a, b in zip(games[0::2], games[1::2]):
        points = 0.0
        for g in (a, b):
            red = POINTS[g["result"]]
            points += red if g["red"] == first else 1.0 - red
        out.append(int(round(points * 2)))
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("records", nargs="+")
    ap.add_argument("--elo0", type=float, default=0.0)
    ap.add_argument("--elo1", type=float, default=50.0)
    ap.add_argument("--runs", type=int, default=2000)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    s0, s1 = score_from_elo(args.elo0), score_from_elo(args.elo1)
    bound = math.log(0.95 / 0.05)
    rng = random.Random(args.seed)
    print(f"SPRT elo0={args.elo0:g} elo1={args.elo1:g} alpha=beta=0.05, over game pairs")
    for path in args.records:
        record = json.load(open(path))
        first = record["pairs"][0]["first"]
        outcomes = pair_outcomes(record, first)
        counts = [outcomes.count(k) for k in range(5)]
        games = record["games"]
        draws = sum(1 for g in games if g["result"] == "1/2-1/2")
        scores = [PAIR_SCORES[o] for o in outcomes]
        mean = statistics.fmean(scores)
        sd = statistics.pstdev(scores)
        error = 1.96 * sd / math.sqrt(len(scores))
        elo = elo_from_score(mean)
        interval = (elo_from_score(mean - error), elo_from_score(mean + error))
        own, own_verdict = pairs_to_verdict(outcomes, s0, s1, bound)
        lengths, h1, unended = [], 0, 0
        for _ in range(args.runs):
            drawn = rng.choices(range(5), weights=counts, k=MOST_PAIRS)
            n, verdict = pairs_to_verdict(drawn, s0, s1, bound)
            if n is None:
                unended += 1
                continue
            lengths.append(n)
            h1 += verdict == "H1"
        print(f"\n{path}: {first} vs {record['pairs'][0]['second']}")
        print(f"  games {len(games)}, draws {draws} ({100 * draws / len(games):.1f} %)")
        print(f"  pentanomial (0, 1/4, 1/2, 3/4, 1 of a pair) {counts}")
        print(f"  pair score {mean:.4f}, spread (sd) {sd:.4f}")
        print(f"  Elo {elo:+.1f} (95 %: {interval[0]:+.1f} to {interval[1]:+.1f})")
        said = f"{own} pairs, {own_verdict}" if own else "no verdict in the record"
        print(f"  SPRT in the record's order: {said}")
        print(
            f"  SPRT on pairs drawn from its pentanomial: mean {statistics.fmean(lengths):.0f} pairs, "
            f"median {statistics.median(lengths):.0f}, H1 in {100 * h1 / args.runs:.1f} %"
            + (f", {unended} runs without a verdict in {MOST_PAIRS} pairs" if unended else "")
        )


if __name__ == "__main__":
    main()
