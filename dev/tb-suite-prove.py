#!/usr/bin/env python3
"""Relabel a suite of table draws lost (the format of `doushou races`) with
the proof under the game's history instead of a search.

A suite entry says which move lost a table draw ("mistake") and which moves
held ("hold"), as far as the search that built it saw. Under
`Repetition=forbid` a search cannot settle that: a loss forced by the
history is stored with its position alone and met again on other paths.
`doushou tb probe --history N` can: it proves what the history makes of a
table draw. This script proves the position after every legal move of each
entry, for the opponent then to move (won for it: the move loses the draw;
held or lost for it: the move holds), and writes the suite again on
standard output:

- an entry where no move holds is dropped: the draw was lost before the
  move, so no answer can be scored (the count and positions are reported);
- an entry whose mistake is not proven to lose, or where no move is
  proven to hold, is dropped;
- otherwise the holds are the moves proven to hold (a move the proof
  leaves unsettled within N positions is not listed, so playing it scores
  as not holding: the count is written in a comment line above the entry);
- an entry the proof does not cover (a position with more pieces than the
  tables, or not a table draw) is kept as it was, said in a comment line.

    dev/tb-suite-prove.py SUITE --engine PROGRAM --tables DIR --prove N > NEW

Progress and the counts go to standard error.
"""
import sys

from tb_probe import HistoryProbe, engine_lines, history_word, rule_commands


def arg(argv, name):
    i = argv.index(name)
    value = argv[i + 1]
    del argv[i:i + 2]
    return value


def holds_after(answer):
    """Whether the move before a position holds the draw, from the probe's
    answer there (the opponent's view): True, False, or None (unknown)."""
    word = history_word(answer)
    if word == "held" and "a win not refuted" in answer:
        return None  # the opponent keeps the draw, and may win
    if word is not None:
        return {"won": False, "held": True, "lost": True}.get(word)
    words = answer.split()
    if words and words[0] == "win":
        return False
    if words and words[0] == "loss":
        return True
    return None


def with_move(position, move):
    return position + (" " if " moves " in position else " moves ") + move


def main():
    argv = sys.argv[1:]
    try:
        program, tables, nodes = arg(argv, "--engine"), arg(argv, "--tables"), int(arg(argv, "--prove"))
    except (ValueError, IndexError):
        sys.exit(__doc__)
    if len(argv) != 1:
        sys.exit(__doc__)
    rules, prover = [], None
    counts = {"kept": 0, "lost whatever the move": 0, "mistake not proven": 0,
              "no hold proven": 0, "outside the proof": 0}
    for line in open(argv[0]):
        line = line.rstrip("\n")
        if line.startswith("# rules:"):
            rules = line.split(":", 1)[1].split()
            if prover:
                prover.close()
            prover = HistoryProbe(program, tables, rules, nodes)
        if not line.strip() or line.startswith("#"):
            print(line)
            continue
        position, mistake, _ = (part.strip() for part in line.split(";"))
        mistake = mistake.split()[1]
        root = prover.answer(position)
        if history_word(root) is None:
            counts["outside the proof"] += 1
            print(f"# not proven ({root}): kept as the search labelled it")
            print(line)
            continue
        setup = rule_commands(rules)
        legal = next(l.split()[1:] for l in
                     engine_lines(program, setup + [f"position fen {position}", "moves"])
                     if l.startswith("moves"))
        verdicts = {m: holds_after(prover.answer(with_move(position, m))) for m in legal}
        holding = [m for m in legal if verdicts[m] is True]
        unknown = [m for m in legal if verdicts[m] is None]
        print(f"{position[:60]}...: holds {len(holding)}, unknown {len(unknown)} "
              f"of {len(legal)}", file=sys.stderr)
        if not holding and not unknown:
            counts["lost whatever the move"] += 1
            print(f"# dropped, lost whatever the move: {position}")
        elif verdicts.get(mistake) is not False:
            counts["mistake not proven"] += 1
            print(f"# dropped, {mistake} not proven to lose: {position}")
        elif not holding:
            counts["no hold proven"] += 1
            print(f"# dropped, no move proven to hold ({len(unknown)} unsettled): {position}")
        else:
            counts["kept"] += 1
            if unknown:
                print(f"# unsettled within {nodes} positions, not listed: {' '.join(unknown)}")
            print(f"{position} ; mistake {mistake} ; hold {' '.join(holding)}")
    if prover:
        prover.close()
    print(", ".join(f"{k} {v}" for k, v in counts.items()), file=sys.stderr)


if __name__ == "__main__":
    main()
